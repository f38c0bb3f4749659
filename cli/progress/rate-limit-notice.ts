/**
 * The notice of a long wait for the rate limit (found in review: a frozen sandbox made runs wait for ever): a run must never wait silently. The
 * first time the client announces a wait of at least `RATE_LIMIT_NOTICE_MS` (the `wait-start`
 * event), one line on stderr says what it waits for, until when and how to avoid it; later waits
 * of the run are only counted (progress lines, the reports' "waiting for the rate limit"). stderr
 * only, so a `--json` document on stdout stays whole, written where the command's progress is
 * (`NoticeWriter`: by default a line of its own on stderr). Pure formatting (`rateLimitNoticeText`)
 * and a thin writer, one per session.
 */
import type { ApiEvent, ApiEventListener, WaitStartEvent } from "../../src/api/index.js";
import { RATE_LIMITS } from "../../src/contract/limits.js";
import { formatDuration } from "../../src/text/duration.js";
import type { Io } from "../output/io.js";

/** What the wait is for, and how to avoid it, by cause. */
const WHY: Readonly<Record<WaitStartEvent["cause"], { readonly what: string; readonly avoid: string }>> = {
  window: {
    what: "this run's requests used up the key's limit for the minute",
    avoid: `a run of many projects paces itself at the key's limit (its X-RateLimit-Limit a minute: ${RATE_LIMITS["read-write"]} for a read-write key, ${RATE_LIMITS["write-only"]} write-only, ${RATE_LIMITS["delete-only"]} delete-only); a run soon after reuses the read cache and reads less`,
  },
  remaining: {
    what: "the API's X-RateLimit-Remaining says the key's limit is used up (another process using the same key?)",
    avoid:
      "give each pipeline its own key; against a sandbox whose clock is frozen or slow (--time-scale 0), start it with --no-rate-limits or move its clock",
  },
  "retry-after": {
    what: "the API answered 429 Too Many Requests",
    avoid: "give each pipeline its own key, or run when the key is idle",
  },
};

/** `waiting 58s for the API's rate limit (until 19:01:00 UTC): ...`. `untilMs` on the client's clock. */
export function rateLimitNoticeText(event: Pick<WaitStartEvent, "cause" | "ms" | "untilMs">): string {
  const why = WHY[event.cause];
  const until = new Date(event.untilMs).toISOString().slice(11, 19);
  return `campaignctl: waiting ${formatDuration(event.ms)} for the API's rate limit (until ${until} UTC): ${why.what}. To avoid it: ${why.avoid}. Later waits of this run are not announced.`;
}

/** Writes one notice line where a command's progress is: a line of its own, above any progress display. */
export type NoticeWriter = (line: string) => void;

/**
 * The default writer: stderr; on a terminal the line first clears the line a progress display
 * (`request-progress.ts`) may be redrawing, which redraws at its next event. apply's live view
 * writes notices above its frame instead (`Progress.note`).
 */
export function stderrNotice(io: Io): NoticeWriter {
  return (line) => io.stderr(`${io.stderrIsTTY ? "\r\x1b[2K" : ""}${line}\n`);
}

/** A listener of the client's events that writes the notice once; give it every event of the session. */
export function createRateLimitNotice(write: NoticeWriter): (event: ApiEvent) => void {
  let said = false;
  return (event) => {
    if (said || event.type !== "wait-start") return;
    said = true;
    write(rateLimitNoticeText(event));
  };
}

/**
 * A session's listener of the client's events: the notice, said once (to `notify`, else stderr),
 * then the caller's own `onEvent`.
 */
export function withRateLimitNotice(
  io: Io,
  options: { readonly notify?: NoticeWriter; readonly onEvent?: ApiEventListener },
): ApiEventListener {
  const notice = createRateLimitNotice(options.notify ?? stderrNotice(io));
  return (event) => {
    notice(event);
    options.onEvent?.(event);
  };
}
