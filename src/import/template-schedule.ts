/**
 * A live schedule as a template instance writes it (SPEC-26): `schedule: {local}` as a local date-time
 * WITHOUT offset, read in the instance's `timezone` (read back by src/campaign/template-schedule.ts).
 * Seconds are written only when not zero. Pure.
 */
import { DateTime } from "luxon";
import { localToAt } from "../campaign/template-schedule.js";
import type { ScheduleTimezone } from "../contract/limits.js";
import { instantOf } from "../plan/requests.js";
import type { ImportedProject } from "./project-to-yaml.js";
import { scalar, type YamlOut } from "./yaml-out.js";

/** An instance's schedule: its zone (an instance key) and the `schedule:` value. */
export interface LocalSchedule {
  readonly timezone: ScheduleTimezone;
  readonly local: string;
  readonly out: YamlOut;
}

/** The project's live schedule as a local time in its zone, or undefined when it has none. */
export function localScheduleOf(project: ImportedProject): LocalSchedule | undefined {
  const wanted = project.wanted.get("schedule");
  if (wanted?.kind !== "set" || wanted.semantic.kind !== "schedule") return undefined;
  const { at, timezone, dailyCapBypass } = wanted.semantic.value;
  const when = DateTime.fromISO(at, { setZone: true }).setZone(timezone);
  if (!when.isValid) return undefined;
  const local = when.toFormat(when.second === 0 ? "yyyy-MM-dd'T'HH:mm" : "yyyy-MM-dd'T'HH:mm:ss");
  const pairs: [string, YamlOut][] = [["local", scalar(local)]];
  if (dailyCapBypass === true) pairs.push(["daily_cap_bypass", scalar(true)]);
  return { timezone, local, out: { kind: "map", pairs } };
}

/**
 * When the live send time is the second of a local time that happens twice (clocks fall back), which
 * `schedule: {local}` reads as the first, one hour earlier: no template can describe it. Answers the
 * local time and both instants (the one `local` means, the live one), else undefined.
 */
export function repeatedLocalTime(
  project: ImportedProject,
): { readonly local: string; readonly read: string; readonly live: string } | undefined {
  const schedule = localScheduleOf(project);
  const wanted = project.wanted.get("schedule");
  if (schedule === undefined || wanted?.kind !== "set" || wanted.semantic.kind !== "schedule")
    return undefined;
  const read = localToAt(schedule.local, schedule.timezone);
  if (read.kind !== "at" || read.later === undefined) return undefined;
  const live = wanted.semantic.value.at;
  return instantOf(read.at) === instantOf(live)
    ? undefined
    : { local: schedule.local, read: read.at, live: read.later };
}
