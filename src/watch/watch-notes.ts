/**
 * What `watch` says of a poll beyond its figures, and whether a failed read ends the run. Pure.
 */
import { type ApiError, mayPassOnRereading, refusesKey } from "../api/index.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { WatchUntil } from "./watch-events.js";

/**
 * Whether a poll whose statistics could not be read ends the run: a key refused (401, 403), which
 * no later poll gets past; on the first poll also a place where nothing answers (a refused
 * connection, a name that does not resolve, TLS: a wrong base URL) and `--once` (its one poll
 * failed). A blip (a 5xx, a 429, a reset, after the client's retries) on any other poll, the first
 * included, is a failed poll: watch goes on, and a project no poll could read is an error at the
 * stop (`watch.project-never-read`). One blip at the start must not leave a send unguarded.
 */
export function endsAtOnce(error: ApiError, first: boolean, until: WatchUntil): boolean {
  if (refusesKey(error)) return true;
  return first && (until === "once" || !mayPassOnRereading(error));
}

/** The first poll deferred `deferred` reads by id to later polls (the budget). */
export function readsDeferredNote(deferred: number): Diagnostic {
  return {
    severity: "info",
    code: "watch.reads-deferred",
    message: `${deferred} project${deferred === 1 ? "" : "s"} of the files that no statistics row lists will be read by id over the next polls, within the polls' budget of requests`,
    hint: "nothing to do: a project that sends is listed by the statistics and judged on every poll",
  };
}

/** The first poll found nothing sending: no project, and no email campaign when `email`. */
export function nothingSendingNote(email: boolean, until: WatchUntil): Diagnostic {
  return {
    severity: "info",
    code: "watch.nothing-sending",
    message: `no project${email ? " or email campaign" : ""} of the campaign files is sending (scheduled or active) now`,
    hint:
      until === "interrupted"
        ? "watch goes on polling: a project scheduled later is watched from then on"
        : "schedule the projects with campaignctl apply, then watch them",
  };
}
