/**
 * A strict parser of durations as flags write them (`90s`, `10m`, `1h30m`, `500ms`). Pure. Apart
 * from the formatter (duration.ts) because the flag registrations load it at start-up, without luxon.
 */

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Milliseconds of `text`: one or more `<integer><unit>` parts, units `h`, `m`, `s`, `ms`, each at
 * most once and in that order; a bare `0` is zero. Undefined for anything else (no bare numbers, no
 * decimals, no signs, nothing above 24 hours).
 */
export function parseDuration(text: string): number | undefined {
  const t = text.trim();
  if (t === "0") return 0;
  const m = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+)s)?(?:(\d+)ms)?$/.exec(t);
  if (m === null || t === "") return undefined;
  const [, h, min, s, ms] = m;
  if (h === undefined && min === undefined && s === undefined && ms === undefined) return undefined;
  const total =
    Number(h ?? 0) * (UNIT_MS.h ?? 0) +
    Number(min ?? 0) * (UNIT_MS.m ?? 0) +
    Number(s ?? 0) * (UNIT_MS.s ?? 0) +
    Number(ms ?? 0);
  return total <= 24 * 3_600_000 ? total : undefined;
}
