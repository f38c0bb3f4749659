/**
 * The forecast's zone clock (src/forecast/zone-clock.ts) reads luxon once per zone and UTC day (and
 * per hour only on a day the offset changes), and formats local times by arithmetic: it must give
 * what luxon gives for every instant, in each of the contract's six zones, across both DST changes.
 */
import { DateTime } from "luxon";
import { describe, expect, test } from "vitest";
import { SCHEDULE_TIMEZONES } from "../../src/contract/limits.js";
import { localDay, localTime, localTimeOfDay } from "../../src/forecast/zone-clock.js";
import { offsetAt } from "../../src/jurisdictions/zone-days.js";

const HOUR = 3_600_000;
/** Around the 2026 and 2027 changes (US: 2026-11-01, 2027-03-14), every 17 minutes for 4 days each. */
const instants = [Date.parse("2026-10-30T00:00:00Z"), Date.parse("2027-03-12T00:00:00Z")].flatMap((from) =>
  Array.from({ length: (4 * 24 * 60) / 17 }, (_, i) => from + i * 17 * 60_000 + (i % 7) * 1_001),
);

describe("the zone clock agrees with luxon", () => {
  test.each(SCHEDULE_TIMEZONES)(
    "%s: offset, local day, time of day and local time at every instant",
    (zone) => {
      for (const ms of instants) {
        const local = DateTime.fromMillis(ms, { zone });
        expect(offsetAt(zone, ms)).toBe(local.offset);
        expect(localDay(zone, ms)).toBe(
          Math.floor(Date.parse(`${local.toISODate()}T00:00:00Z`) / (24 * HOUR)),
        );
        expect(localTimeOfDay(zone, ms)).toEqual({
          hour: local.hour,
          minute: local.minute,
          second: local.second,
          millisecond: local.millisecond,
        });
        expect(localTime(ms, zone)).toBe(local.toFormat("yyyy-MM-dd HH:mm ZZZZ"));
      }
    },
  );
});
