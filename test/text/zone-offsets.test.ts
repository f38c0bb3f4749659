/**
 * The schedule checks read the US zones' offsets from a table of ICU's own, written at build time
 * (scripts/gen-zone-offsets.mjs; src/text/zone-offsets.ts), so that a small file's `validate` makes
 * no `Intl.DateTimeFormat` (issue 36). Its answers must be luxon's (ICU's) for every instant, zone
 * name and DateTime operation the checks use; any other name, instant or runtime must go to luxon.
 */
import { readFileSync } from "node:fs";
import { DateTime, IANAZone } from "luxon";
import { describe, expect, test } from "vitest";
import { SCHEDULE_TIMEZONES } from "../../src/contract/limits.js";
import { CHANGES, FROM_MS, RUNTIME, TO_MS } from "../../src/text/generated/zone-offsets.js";
import {
  FIXED_LOCALE,
  isKnownZone,
  tableInForce,
  tableOffset,
  zoneNamed,
  zoneOffset,
} from "../../src/text/zone-offsets.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const stateZones = JSON.parse(readFileSync("src/jurisdictions/data/us-state-zones.json", "utf8")) as {
  states: Record<string, { zones: string[] }>;
};
const TABLE = Object.keys(CHANGES);
/** The contract's six schedule zones (`scheduled_timezone`). */
const SCHEDULE_ZONES: readonly string[] = SCHEDULE_TIMEZONES;
const luxonOffset = (zone: string, ms: number): number => IANAZone.create(zone).offset(ms);

describe("the table", () => {
  test("is in force in the runtime that built it, and only there", () => {
    // The suite runs on the Node that ran `npm run build`: the generated file names it.
    expect(tableInForce(process.versions)).toBe(true);
    for (const key of Object.keys(RUNTIME))
      expect(tableInForce({ ...process.versions, [key]: `${process.versions[key]}-other` })).toBe(false);
    expect(tableInForce(undefined)).toBe(false);
    expect(tableOffset("America/Chicago", Date.UTC(2026, 11, 7), false)).toBeUndefined();
  });

  test("holds every zone of every US state and territory, the six a schedule may name among them", () => {
    const zones = new Set(Object.values(stateZones.states).flatMap((s) => s.zones));
    expect(TABLE.sort()).toEqual([...zones].sort());
    for (const zone of SCHEDULE_ZONES) expect(TABLE).toContain(zone);
  });

  test("answers only inside 2000-2070 and for its own names", () => {
    expect(tableOffset("America/Chicago", FROM_MS - 1)).toBeUndefined();
    expect(tableOffset("America/Chicago", TO_MS)).toBeUndefined();
    expect(tableOffset("America/Chicago", Number.NaN)).toBeUndefined();
    expect(tableOffset("America/Chicago", FROM_MS)).toBe(-360);
    for (const name of [
      "US/Central",
      "america/chicago",
      "America/Chicago ",
      "CST6CDT",
      "Europe/Kyiv",
      "toString",
      "__proto__",
    ])
      expect(tableOffset(name, Date.UTC(2026, 0, 1))).toBeUndefined();
  });

  test.each(TABLE)("%s: luxon's offset around every change and at every 169th hour, 2000-2070", (zone) => {
    const changes = CHANGES[zone] as readonly number[];
    const instants: number[] = [FROM_MS, TO_MS - 1];
    for (let i = 1; i < changes.length; i += 2) {
      const at = changes[i] as number;
      instants.push(at - HOUR, at - 60_000, at - 1, at, at + 1, at + 60_000, at + HOUR);
    }
    // Every 169th hour (a week and an hour) walks through every hour of the day in 24 weeks, and
    // reads each stretch between two changes (months long) many times over.
    for (let ms = FROM_MS; ms < TO_MS; ms += 169 * HOUR) instants.push(ms);
    const wrong = instants.filter((ms) => tableOffset(zone, ms) !== luxonOffset(zone, ms));
    expect(wrong.map((ms) => new Date(ms).toISOString())).toEqual([]);
  });

  test("zoneOffset: the table's where it answers, luxon's elsewhere (other names, years, unknown zones)", () => {
    const cases: [string, number][] = [
      ["America/Chicago", Date.UTC(2026, 2, 8, 8, 0)],
      ["America/Chicago", Date.UTC(1999, 5, 1)],
      ["America/Chicago", Date.UTC(2080, 5, 1)],
      ["US/Central", Date.UTC(2026, 5, 1)],
      ["Asia/Kolkata", Date.UTC(2026, 5, 1)],
      ["Australia/Lord_Howe", Date.UTC(2026, 3, 5, 15)],
    ];
    for (const [zone, ms] of cases) expect(zoneOffset(zone, ms)).toBe(luxonOffset(zone, ms));
    expect(zoneOffset("Mars/Olympus", 0)).toBeNaN();
  });
});

describe("zone names", () => {
  const aliases = [
    "Asia/Kolkata",
    "Asia/Calcutta",
    "US/Central",
    "US/Pacific",
    "UTC",
    "Etc/UTC",
    "GMT",
    "Etc/GMT+5",
    "EST5EDT",
    "EST",
    "CST",
    "Europe/Kyiv",
    "Europe/Kiev",
    "America/Argentina/Buenos_Aires",
    "america/chicago",
    "AMERICA/NEW_YORK",
    "America/St_Thomas",
    "Pacific/Saipan",
  ];
  const unknown = [
    "",
    "Mars/Olympus",
    "America/Gotham",
    "America/Chicago ",
    "toString",
    "__proto__",
    "America",
  ];

  test("isKnownZone is luxon's (Intl's) answer for every zone Intl lists, aliases, other cases and unknown names", () => {
    const names = [...Intl.supportedValuesOf("timeZone"), ...aliases, ...unknown, ...TABLE];
    const differ = names.filter((name) => isKnownZone(name) !== IANAZone.isValidZone(name));
    expect(differ).toEqual([]);
    for (const name of unknown) expect(isKnownZone(name)).toBe(false);
  });

  test("zoneNamed hands luxon the name itself for every name the table does not hold", () => {
    for (const name of [...aliases, ...unknown].filter((n) => !TABLE.includes(n)))
      expect(zoneNamed(name)).toBe(name);
    for (const name of TABLE) expect(zoneNamed(name)).not.toBe(name);
  });
});

/** Around a change: the hours either side and the change's own minute and millisecond. */
const AROUND_CHANGE = [-3, -2, -1, 1, 2, 3].map((h) => h * HOUR).concat([-60_000, -1, 0, 1, 60_000]);

describe("luxon DateTimes in the table's zones read as in luxon's own", () => {
  // Instants around both 2026 changes of each schedule zone, plus ordinary days and the table's ends.
  const instants = (zone: string): number[] => {
    const out = [FROM_MS, TO_MS - HOUR, TO_MS + DAY, FROM_MS - DAY, Date.UTC(2026, 11, 7, 16)];
    const changes = CHANGES[zone] as readonly number[];
    for (let i = 1; i < changes.length; i += 2) {
      const at = changes[i] as number;
      if (at >= Date.UTC(2026, 0, 1) && at < Date.UTC(2028, 0, 1))
        for (const d of AROUND_CHANGE) out.push(at + d);
    }
    return out;
  };
  const read = (zone: string | ReturnType<typeof zoneNamed>, ms: number, locale?: object): unknown[] => {
    const t = DateTime.fromMillis(ms, { zone, ...locale });
    const at = DateTime.fromISO(t.toISO() ?? "", { setZone: true, ...locale });
    return [
      t.offset,
      t.zoneName,
      t.isInDST,
      t.toISO(),
      t.toFormat("yyyy-MM-dd HH:mm:ss ZZ Z ZZZ"),
      t.toFormat("ZZZZ"),
      t.startOf("day").plus({ days: 1 }).toMillis(),
      t.set({ hour: 2, minute: 30 }).toMillis(),
      at.setZone(zone).equals(t),
      at.setZone(zone).toFormat("HH:mm ZZ"),
      at.setZone(zone, { keepLocalTime: true }).toISO({ suppressMilliseconds: true }),
      DateTime.fromISO(t.toISODate() ?? "", { zone, ...locale }).toMillis(),
    ];
  };
  test.each(SCHEDULE_ZONES)("%s", (zone) => {
    for (const ms of instants(zone)) expect(read(zoneNamed(zone), ms, FIXED_LOCALE)).toEqual(read(zone, ms));
  });
});
