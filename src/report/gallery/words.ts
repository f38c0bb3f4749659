/**
 * Words for the internal names the gallery shows, for reviewers who do not read YAML nor know the
 * API: each project status with what it means (`draft: not tested yet`), each desired state, each
 * action and its status, and ISO times written in the recipients' zone with UTC beside them. Pure.
 */
import { DateTime } from "luxon";
import type { DesiredState } from "../../campaign/model.js";
import type { ProjectStatus } from "../../contract/limits.js";
import type { ActionStatus } from "../../plan/types.js";

/** `awaiting_test: waiting for approval in the dashboard`: the API's status name, then its meaning. */
export function statusWords(status: ProjectStatus | string): string {
  return `${status}: ${statusMeaning(status)}`;
}

function statusMeaning(status: ProjectStatus | string): string {
  switch (status) {
    case "draft":
      return "not tested yet";
    case "awaiting_test":
      return "test sent, waiting for approval in the dashboard";
    case "ready":
      return "test approved, not scheduled yet";
    case "scheduled":
      return "scheduled to send";
    case "active":
      return "sending now";
    case "paused":
      return "paused, sends nothing until resumed";
    case "completed":
      return "sent, finished";
    default:
      return "a status this campaignctl does not know";
  }
}

/** What the file asks for, in words: `the file asks: scheduled (send at its schedule)`. */
export function desiredWords(desired: DesiredState): string {
  switch (desired) {
    case "draft":
      return "draft (not tested, nothing sent)";
    case "tested":
      return "tested (a test send to the test contacts, no send to the lists)";
    case "scheduled":
      return "scheduled (tested, approved, then sent to its lists at its schedule)";
    case "paused":
      return "paused (sends nothing)";
  }
}

/** `test send`, `schedule`, `pause`: an action's kind as a reviewer names it. */
export function actionWords(kind: string): string {
  return kind === "test" ? "test send" : kind;
}

/** An action's status in words: `planned (done when the plan is applied)`. */
export function actionStatusWords(status: ActionStatus): string {
  switch (status) {
    case "planned":
      return "planned (done when the plan is applied)";
    case "deferred":
      return "deferred (waits for an earlier step)";
    case "blocked":
      return "blocked (cannot be done as the files stand)";
  }
}

const ISO = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/g;

/**
 * Rewrites every ISO date-time in `text` in one zone, `zone` (the recipients'), with UTC beside it:
 * `2026-12-07T10:00:00-06:00` -> `Mon, Dec 7, 2026, 10:00 AM CST (16:00 UTC)`. Without a zone, in
 * UTC alone. A sentence then never mixes zones.
 */
export function zonedTimes(text: string, zone: string | null): string {
  return text.replace(ISO, (iso) => {
    const at = DateTime.fromISO(iso, { setZone: true });
    if (!at.isValid) return iso;
    const utc = at.toUTC();
    if (zone === null) return `${utc.toFormat("ccc, LLL d, yyyy, HH:mm")} UTC`;
    const local = at.setZone(zone);
    if (!local.isValid) return `${utc.toFormat("ccc, LLL d, yyyy, HH:mm")} UTC`;
    const sameDay = local.toISODate() === utc.toISODate();
    return `${local.toFormat("ccc, LLL d, yyyy, h:mm a ZZZZ")} (${utc.toFormat(sameDay ? "HH:mm" : "LLL d, HH:mm")} UTC)`;
  });
}
