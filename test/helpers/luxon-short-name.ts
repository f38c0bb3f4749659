/**
 * Luxon's `ZZZZ` (a zone's short name at an instant) as luxon reads it (`parseZoneInfo`: ICU's
 * `timeZoneName: "short"` with these options, in the DateTime's locale), from a formatter made once
 * per zone and locale: luxon makes a new `Intl.DateTimeFormat` at each call, which made the tests
 * that read it at thousands of instants spend most of their time there. Each test that uses it also
 * checks it against luxon's own `toFormat("ZZZZ")` at instants of its own.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

export function luxonShortName(zone: string, locale: string, ms: number): string | undefined {
  const key = `${zone}|${locale}`;
  let format = formats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, {
      timeZoneName: "short",
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      timeZone: zone,
    });
    formats.set(key, format);
  }
  return format.formatToParts(new Date(ms)).find((p) => p.type === "timeZoneName")?.value;
}
