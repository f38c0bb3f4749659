/**
 * The contract's date-time values (`updated_at` and the like: RFC 3339, an ISO 8601 date-time with
 * a zone) read as instants. {@link sameInstant} is the one rule for comparing two versions of a
 * record: the plan's cache, apply's basis reads, the transition judge and the saved-plan check all
 * use it, so the same moment written two ways (`Z`, `.000Z`, `+00:00`, another offset) is the same
 * version everywhere, and a value that cannot be read is never the same as anything. Pure.
 *
 * Displays keep the values as the API wrote them; only comparisons go through here.
 */
import { DateTime } from "luxon";
import { boundedMemo } from "../text/bounded-memo.js";

/**
 * The shape the contract's date-times have (RFC 3339): `YYYY-MM-DDTHH:MM[:SS[.fraction]]`, then `Z`
 * or `±HH:MM` (or `±HHMM`), with hours, minutes and seconds in range. luxon alone would also read a
 * time with no zone (as the machine's local time), a date alone, or hour 24, none of which names
 * one moment here; it checks the rest (February 30, month 13) and does the arithmetic.
 */
const DATE_TIME =
  /^\d{4}-\d{2}-\d{2}[Tt](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.(\d+))?)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/;

/**
 * A moment, to full precision: milliseconds since the epoch, and the fraction's digits beyond the
 * millisecond (trailing zeros dropped, so `.0000001` and `.00000010` agree), which luxon drops.
 */
interface Instant {
  readonly ms: number;
  readonly beyondMs: string;
}

/**
 * Values already read, by their text (null: not a date-time). luxon's reading is most of the cost of
 * a comparison, and the same texts come back: a list's rows share a consent time, a plan reads each
 * cached `updated_at` against the live one, a long-running process (watch, the language server)
 * reads them again at each poll or edit. Keyed by content and immutable, so safe to share; the
 * least recently read dropped beyond 10,000 (src/text/bounded-memo.ts).
 */
const READ = boundedMemo<Instant | null>({ max: 10_000 });

function read(value: string): Instant | undefined {
  return READ.get(value, () => readNew(value)) ?? undefined;
}

function readNew(value: string): Instant | null {
  const shape = DATE_TIME.exec(value);
  let found: Instant | null = null;
  if (shape !== null) {
    const at = DateTime.fromISO(value, { setZone: true });
    if (at.isValid) found = { ms: at.toMillis(), beyondMs: (shape[1] ?? "").slice(3).replace(/0+$/, "") };
  }
  return found;
}

/**
 * Whether `a` and `b` name the same moment, however each is written. False when either cannot be
 * read as a date-time with a zone: a version that cannot be confirmed is never "the same" (a send
 * must not rest on it).
 */
export function sameInstant(a: string, b: string): boolean {
  const x = read(a);
  const y = read(b);
  return x !== undefined && y !== undefined && x.ms === y.ms && x.beyondMs === y.beyondMs;
}

/**
 * The moment `value` names, in milliseconds since the epoch (digits beyond the millisecond are
 * dropped), for comparisons with a clock; undefined when it cannot be read as a date-time with a zone.
 */
export function instantMs(value: string): number | undefined {
  return read(value)?.ms;
}

/**
 * Orders records by the moment their `created_at` names (however each is written: an offset, a
 * fraction), then by id; an unreadable time first. The one order of the listings that show projects
 * oldest first (`status --all`, `import --all`).
 */
export function byCreation(
  a: { readonly created_at: string; readonly id: string },
  b: { readonly created_at: string; readonly id: string },
): number {
  const x = instantMs(a.created_at) ?? Number.NEGATIVE_INFINITY;
  const y = instantMs(b.created_at) ?? Number.NEGATIVE_INFINITY;
  return x !== y ? (x < y ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
