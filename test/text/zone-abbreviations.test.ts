/**
 * Each table zone's abbreviation (src/text/zone-offsets.ts `zoneAbbreviation`, from the table
 * scripts/gen-zone-offsets.mjs writes at build time) is luxon's `ZZZZ` in English, ICU's short
 * zone name, at every change of offset, the millisecond before it, and every 9 days from 2000 to
 * 2070 (there through luxon's own reading from one formatter per zone: test/helpers/luxon-short-name.ts);
 * a zone or an instant outside the table is luxon's own.
 */
import { DateTime } from "luxon";
import { expect, test } from "vitest";
import { ABBREVIATIONS, CHANGES, FROM_MS, TO_MS } from "../../src/text/generated/zone-offsets.js";
import { zoneAbbreviation } from "../../src/text/zone-offsets.js";
import { luxonShortName } from "../helpers/luxon-short-name.js";

const DAY = 86_400_000;
const luxonName = (zone: string, ms: number): string =>
  DateTime.fromMillis(ms, { zone }).setLocale("en-US").toFormat("ZZZZ");

test("every table zone's abbreviation is luxon's at each change, before it and every 9 days", () => {
  // Every zone of the table names its offsets (none goes by two names in 2000-2070 in this ICU).
  expect(Object.keys(ABBREVIATIONS).sort()).toEqual(Object.keys(CHANGES).sort());
  const wrong: string[] = [];
  let sweep = 0;
  for (const [zone, changes] of Object.entries(CHANGES)) {
    // At each change and the millisecond before it: luxon itself.
    for (let i = 1; i < changes.length; i += 2)
      for (const ms of [changes[i] as number, (changes[i] as number) - 1])
        if (zoneAbbreviation(zone, ms) !== luxonName(zone, ms))
          wrong.push(`${zone} ${new Date(ms).toISOString()}: ${zoneAbbreviation(zone, ms)}`);
    // Every 9 days between them: luxon's reading from one formatter per zone (luxon makes a new
    // one at each call: 37,000 of them were most of this file's time), itself checked against
    // luxon at every 16th instant.
    for (let ms = FROM_MS; ms < TO_MS; ms += 9 * DAY, sweep += 1) {
      const name = zoneAbbreviation(zone, ms);
      if (name !== luxonShortName(zone, "en-US", ms))
        wrong.push(`${zone} ${new Date(ms).toISOString()}: ${name}`);
      if (sweep % 16 === 0 && luxonShortName(zone, "en-US", ms) !== luxonName(zone, ms))
        wrong.push(`${zone} ${new Date(ms).toISOString()}: the formatter is not luxon's`);
    }
  }
  expect(wrong).toEqual([]);
});

test("a zone or an instant the table does not hold is named by luxon", () => {
  for (const [zone, ms] of [
    ["Europe/Berlin", Date.UTC(2026, 6, 1)],
    ["America/Havana", Date.UTC(2026, 0, 1)],
    ["America/New_York", Date.UTC(1990, 6, 1)],
    ["America/New_York", Date.UTC(2080, 0, 1)],
  ] as const)
    expect(zoneAbbreviation(zone, ms)).toBe(luxonName(zone, ms));
  expect(zoneAbbreviation("America/New_York", Date.UTC(2026, 0, 15))).toBe("EST");
  expect(zoneAbbreviation("America/Los_Angeles", Date.UTC(2026, 6, 15))).toBe("PDT");
});
