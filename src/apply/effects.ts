/** What an action's success says it did, for the report: test messages and the schedule. Pure. */
import { DateTime } from "luxon";
import type { Project } from "../contract/resources.js";
import type { ScheduleEffect, SentTestMessage } from "./types.js";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `test_messages` of a test response (the API masks `sent_to`); empty when the shape is unexpected. */
export function testMessagesOf(data: unknown): readonly SentTestMessage[] {
  if (!isObject(data) || !Array.isArray(data.test_messages)) return [];
  return data.test_messages.flatMap((m) =>
    isObject(m) && typeof m.test_message_id === "string" && typeof m.sent_to === "string"
      ? [{ test_message_id: m.test_message_id, sent_to: m.sent_to }]
      : [],
  );
}

/** The schedule as the report shows it: in its own timezone and in UTC. */
export function scheduleEffect(
  scheduledAt: string,
  timezone: string,
  dailyCapBypass: boolean,
): ScheduleEffect | null {
  const at = DateTime.fromISO(scheduledAt, { setZone: true });
  if (!at.isValid) return null;
  const local = at.setZone(timezone);
  return {
    scheduled_at: scheduledAt,
    scheduled_timezone: timezone,
    local_time: (local.isValid ? local : at).toISO({ suppressMilliseconds: true }) ?? scheduledAt,
    utc_time: at.toUTC().toISO({ suppressMilliseconds: true }) ?? scheduledAt,
    daily_cap_bypass: dailyCapBypass,
  };
}

/** From a schedule response (or a replay of one), else from the body that was sent. */
export function scheduleEffectOf(data: unknown, sent: unknown): ScheduleEffect | null {
  const from = isObject(data) && typeof data.scheduled_at === "string" ? data : isObject(sent) ? sent : null;
  if (from === null) return null;
  const at = from.scheduled_at;
  const zone = from.scheduled_timezone;
  if (typeof at !== "string" || typeof zone !== "string") return null;
  return scheduleEffect(at, zone, from.daily_cap_bypass === true);
}

/** From a project re-read after an unknown outcome. */
export function scheduleEffectOfProject(project: Project, sent: unknown): ScheduleEffect | null {
  if (project.scheduled_at === null || project.scheduled_timezone === null)
    return scheduleEffectOf(null, sent);
  const bypass =
    project.daily_cap_bypass ??
    (isObject(sent) && typeof sent.daily_cap_bypass === "boolean" ? sent.daily_cap_bypass : false);
  return scheduleEffect(project.scheduled_at, project.scheduled_timezone, bypass);
}
