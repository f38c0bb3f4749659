/**
 * The forecast's zone clock (src/forecast/zone-clock.ts) reads luxon once per zone and UTC day (and
 * per hour only on a day the offset changes), and formats local times by arithmetic: it must give
 * what luxon gives for every instant, in each of the contract's six zones, across both DST changes.
 * Luxon is read in the product's fixed locale: in the machine's (LANG=de_DE.UTF-8) the short zone
 * name is `GMT-4`, not `EDT`, and the reference, not the clock, would differ.
 */
import { isDeepStrictEqual } from "node:util";
import { DateTime } from "luxon";
import { describe, expect, test } from "vitest";
import { SCHEDULE_TIMEZONES } from "../../src/contract/limits.js";
import { localDay, localTime, localTimeOfDay } from "../../src/forecast/zone-clock.js";
import { offsetAt } from "../../src/jurisdictions/zone-days.js";
import { FIXED_LOCALE } from "../../src/text/zone-offsets.js";
import { luxonShortName } from "../helpers/luxon-short-name.js";

const HOUR = 3_600_000;
/** Around the 2026 and 2027 changes (US: 2026-11-01, 2027-03-14), every 17 minutes for 4 days each. */
const instants = [Date.parse("2026-10-30T00:00:00Z"), Date.parse("2027-03-12T00:00:00Z")].flatMap((from) =>
  Array.from({ length: (4 * 24 * 60) / 17 }, (_, i) => from + i * 17 * 60_000 + (i % 7) * 1_001),
);

describe("the zone clock agrees with luxon", () => {
  test("the short zone name read once per zone is luxon's ZZZZ, around both changes", () => {
    for (const zone of SCHEDULE_TIMEZONES)
      for (const ms of instants.filter((_, i) => i % 37 === 0)) {
        const local = DateTime.fromMillis(ms, { zone, ...FIXED_LOCALE });
        expect(luxonShortName(zone, local.locale ?? "", ms)).toBe(local.toFormat("ZZZZ"));
      }
  });

  test.each(SCHEDULE_TIMEZONES)(
    "%s: offset, local day, time of day and local time at every instant",
    (zone) => {
      // Every instant's four readings, each beside luxon's; the instants where any differs, in one
      // assertion at the end (an expect per reading, 16,000 for the file, was a third of its time).
      const differing: { at: string; zoneClock: unknown[]; luxon: unknown[] }[] = [];
      for (const ms of instants) {
        const local = DateTime.fromMillis(ms, { zone, ...FIXED_LOCALE });
        const zoneClock = [
          offsetAt(zone, ms),
          localDay(zone, ms),
          localTimeOfDay(zone, ms),
          localTime(ms, zone),
        ];
        const luxon = [
          local.offset,
          Math.floor(Date.parse(`${local.toISODate()}T00:00:00Z`) / (24 * HOUR)),
          { hour: local.hour, minute: local.minute, second: local.second, millisecond: local.millisecond },
          `${local.toFormat("yyyy-MM-dd HH:mm")} ${luxonShortName(zone, local.locale ?? "", ms)}`,
        ];
        if (!isDeepStrictEqual(zoneClock, luxon))
          differing.push({ at: new Date(ms).toISOString(), zoneClock, luxon });
      }
      expect(differing).toEqual([]);
    },
  );
});
