#!/usr/bin/env node
/**
 * Writes src/text/generated/zone-offsets.ts: the UTC offsets of the US zones the schedule
 * checks read (every zone of src/jurisdictions/data/us-state-zones.json, which holds the six a
 * campaign's `schedule.timezone` may name), as this Node's ICU gives them, from 2000 to 2070.
 * Issue 36: a process's first `Intl.DateTimeFormat` costs about 13 ms of ICU set-up, most of a
 * small file's `validate` beyond Node's own start; with this table the schedule checks of a file
 * in these zones read no `Intl` at all. The table is used only by the same runtime that wrote it
 * (its `process.versions` of Node, V8, ICU and tz data, `RUNTIME` below; src/text/zone-offsets.ts), so its
 * answers are ICU's: any other runtime, zone or instant asks luxon (and ICU) as before.
 *
 * Read from ICU once a day (00:00 UTC) and each change found by bisection to the millisecond:
 * correct while no zone changes its offset twice within a day (zone-days.ts assumes the same);
 * test/text/zone-offsets.test.ts checks the table against luxon each hour and around
 * every change. `npm run build` runs it (src/*\/generated/ is build output, not in git).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DateTime } from "luxon";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = "src/text/generated/zone-offsets.ts";
/** The years covered: [FROM, TO) as UTC instants. */
const FROM_MS = Date.UTC(2000, 0, 1);
const TO_MS = Date.UTC(2070, 0, 1);
const DAY_MS = 86_400_000;

/** The zones: every zone a US state or territory implies (the schedule's six among them). */
export function tableZones() {
  const data = JSON.parse(readFileSync(join(root, "src/jurisdictions/data/us-state-zones.json"), "utf8"));
  return [...new Set(Object.values(data.states).flatMap((s) => s.zones))].sort();
}

/** The runtime whose ICU the table is read from: the table is used by this runtime only. */
const RUNTIME_KEYS = ["node", "v8", "icu", "tz"];

/** The offset of `zone` at `ms` in minutes, from ICU's `longOffset` name (`GMT-05:00`, `GMT`). */
function offsetReader(zone) {
  const format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
  return (ms) => {
    const name = format.formatToParts(ms).find((p) => p.type === "timeZoneName")?.value ?? "";
    const m = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
    if (m === null) throw new Error(`${zone}: unexpected offset name ${JSON.stringify(name)} at ${ms}`);
    return m[1] === undefined ? 0 : (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  };
}

/**
 * The offsets of `zone` over [FROM_MS, TO_MS): `[offset at FROM_MS, change ms, offset from then,
 * ...]`, changes in order.
 */
export function zoneChanges(zone) {
  const offsetAt = offsetReader(zone);
  let before = offsetAt(FROM_MS);
  const out = [before];
  for (let day = FROM_MS + DAY_MS; day <= TO_MS; day += DAY_MS) {
    const now = offsetAt(day);
    if (now === before) continue;
    // The change is in (day - DAY_MS, day]: its first millisecond at the new offset.
    let lo = day - DAY_MS;
    let hi = day;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetAt(mid) === before) lo = mid;
      else hi = mid;
    }
    if (offsetAt(hi) !== now)
      throw new Error(`${zone}: two changes within a day before ${new Date(day).toISOString()}`);
    out.push(hi, now);
    before = now;
  }
  return out;
}

/**
 * The abbreviation (`EST`) of `zone` at each of its offsets, as luxon formats `ZZZZ` in English
 * (ICU's short zone name), read at both ends of every stretch of one offset; undefined when one
 * offset goes by two names in the years covered (luxon then asks ICU, as before).
 */
export function zoneAbbreviations(zone, changes) {
  const names = {};
  const nameAt = (ms) => DateTime.fromMillis(ms, { zone }).setLocale("en-US").toFormat("ZZZZ");
  for (let i = 0; i < changes.length; i += 2) {
    const offset = changes[i];
    const from = i === 0 ? FROM_MS : changes[i - 1];
    const to = (i + 1 < changes.length ? changes[i + 1] : TO_MS) - 1;
    for (const name of [nameAt(from), nameAt(Math.floor((from + to) / 2)), nameAt(to)]) {
      if (names[offset] !== undefined && names[offset] !== name) return undefined;
      names[offset] = name;
    }
  }
  return names;
}

function source() {
  const zones = tableZones();
  const changes = new Map(zones.map((zone) => [zone, zoneChanges(zone)]));
  const lines = zones.map((zone) => `  ${JSON.stringify(zone)}: [${changes.get(zone).join(", ")}],`);
  const names = zones.flatMap((zone) => {
    const byOffset = zoneAbbreviations(zone, changes.get(zone));
    return byOffset === undefined ? [] : [`  ${JSON.stringify(zone)}: ${JSON.stringify(byOffset)},`];
  });
  return `// Written by scripts/gen-zone-offsets.mjs (\`npm run build\`): do not edit.
/** The runtime whose ICU these offsets are (src/text/zone-offsets.ts uses them there only). */
export const RUNTIME: Readonly<Record<string, string>> = ${JSON.stringify(Object.fromEntries(RUNTIME_KEYS.map((k) => [k, process.versions[k] ?? ""])))};
/** The instants covered: [FROM_MS, TO_MS). */
export const FROM_MS = ${FROM_MS};
export const TO_MS = ${TO_MS};
/** By zone: its offset (minutes) at FROM_MS, then each change: the instant (ms), the offset from it. */
export const CHANGES: Readonly<Record<string, readonly number[]>> = {
${lines.join("\n")}
};
/** By zone: its abbreviation at each offset (minutes), as luxon's \`ZZZZ\` in English (zones whose offsets each go by one name). */
export const ABBREVIATIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
${names.join("\n")}
};
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(join(root, dirname(OUT)), { recursive: true });
  writeFileSync(join(root, OUT), source());
}
