/**
 * The words of `campaignctl watch` on a terminal or in a log: one line per event for a pipe or a
 * file, the frame of the live view for a terminal, and the JSON line of each event. Pure: the
 * view (`watch-view.ts`) decides where each goes. Rates are shown as `status` shows them
 * (`src/report/status-cells.ts`): percentages with one decimal, `-` without a denominator, `?` unknown.
 */

import { diagnosticJson } from "../diagnostics/json.js";
import { type Rates, ratesOf } from "../status/figures.js";
import { formatDuration } from "../text/duration.js";
import { limitPercent } from "../watch/guard-reason.js";
import { pendingWords } from "../watch/watch-decide.js";
import type {
  GuardLine,
  PauseLine,
  StopReason,
  WatchEvent,
  WatchProjectLine,
  WatchUntil,
} from "../watch/watch-events.js";
import { countCell, displayWidth, pad, percentCell, truncate, visibleText } from "./status-cells.js";

/** The prefix of a progress line: `+1m 5s`, the time since the run started. */
function elapsedPrefix(elapsedMs: number): string {
  return `+${formatDuration(elapsedMs)}`;
}

type Started = Extract<WatchEvent, { type: "start" }>;
type Tripped = Extract<WatchEvent, { type: "tripped" }>;
type PauseTried = Extract<WatchEvent, { type: "pause" }>;
type Polled = Extract<WatchEvent, { type: "poll" }>;
type Stopped = Extract<WatchEvent, { type: "stop" }>;

/** An event as its JSON line (`schemas/watch-event.schema.json`), newline included. */
export function jsonLine(event: WatchEvent): string {
  const shown =
    event.type === "diagnostic" ? { ...event, diagnostic: diagnosticJson(event.diagnostic) } : event;
  return `${JSON.stringify(shown)}\n`;
}

const UNTIL_TEXT: Readonly<Record<WatchUntil, string>> = {
  once: "one poll",
  done: "until none is sending",
  interrupted: "until Ctrl-C",
};

/** The lines that open a run: what is watched, how often, until when, and what is not sending. */
export function startLines(event: Started): string[] {
  const sending = event.projects.filter((p) => p.sending).length;
  const lines = [
    `watch: ${sending} of ${event.projects.length} project${event.projects.length === 1 ? "" : "s"} sending; polling every ${formatDuration(event.interval_ms)}, ${UNTIL_TEXT[event.until]}`,
  ];
  for (const p of event.projects)
    if (!p.sending) lines.push(`  ${label(p)}: ${p.status ?? "unreadable"} (not sending)`);
  return lines;
}

/** A project's progress as one line: `+15s gotv-reminder: active, 120 of 1,000 sent, ...`. */
export function progressLine(event: Extract<WatchEvent, { type: "progress" }>): string {
  return `${elapsedPrefix(event.elapsed_ms)} ${label(event.project)}: ${figuresText(event.project)}`;
}

/** The figures of a project in words (the progress line without its label). */
export function figuresText(p: WatchProjectLine): string {
  const status = p.status ?? "unreadable";
  if (p.source !== "statistics") return `${status}, figures unknown (no statistics row) · ${guardText(p)}`;
  const r = rates(p);
  return `${status}, ${sentText(p)}, delivery ${percentCell(r.delivery, true)}, failure ${percentCell(r.failure, true)}, opt-out ${percentCell(r.optOut, true)} · ${guardText(p)}`;
}

/** `120 of 1,000 sent` (recipients are known once the audience is compiled). */
function sentText(p: WatchProjectLine): string {
  return `${countCell(p.sent)} of ${countCell(p.recipients)} sent`;
}

/** How the guard judges the figures now, with its thresholds. */
export function guardText(p: WatchProjectLine): string {
  if (p.guard === null) return "no guard";
  const thresholds = thresholdsText(p.guard);
  switch (p.judged) {
    case "no-guard":
      return "no guard";
    case "unknown":
      return `guard (${thresholds}) not judged: figures unknown`;
    case "below-sample":
      return `guard (${thresholds}) waits for ${countCell(p.guard.min_sample)} sent`;
    case "within":
      return `guard ok (${thresholds})`;
    case "tripped":
      return `GUARD TRIPPED (${thresholds})`;
    case "above":
      return `above its guard (${thresholds}), not sending`;
  }
}

/** `failure ≤ 5%, opt-out ≤ 2%`. */
export function thresholdsText(g: GuardLine): string {
  const parts: string[] = [];
  if (g.max_failure_rate !== null) parts.push(`failure ≤ ${limitPercent(g.max_failure_rate)}`);
  if (g.max_opt_out_rate !== null) parts.push(`opt-out ≤ ${limitPercent(g.max_opt_out_rate)}`);
  return parts.join(", ");
}

/**
 * Where a pause stands, in words: `paused`, `not paused: it was already completed`, `pause pending
 * (...)`. `once`: the run makes no later poll (`--once`), so a pending pause is not tried again.
 */
export function pauseText(pause: PauseLine, once = false): string {
  switch (pause.outcome) {
    case "paused":
      return `paused${pause.replayed ? " (the API replayed an earlier pause with this key)" : ""}`;
    case "not-sending":
      return `not paused: it was already ${pause.status_after ?? "stopped"}`;
    case "pending":
      return `pause pending (${visibleText(pendingWords(pause.attempts, pause.last_error))}); ${once ? "--once: no later poll tries it again" : "tried again on the next poll"}`;
  }
}

/** A trip and what the first try of its pause came to, as one line. */
export function trippedLine(event: Tripped, once = false): string {
  return `${elapsedPrefix(event.elapsed_ms)} ${label(event.project)}: GUARD TRIPPED: ${visibleText(event.reason.replace(/^guard: /, ""))}; ${pauseText(event.pause, once)}`;
}

/** A later try of a pending pause (or the read that settled it), as one line. */
export function pauseTriedLine(event: PauseTried, once = false): string {
  return `${elapsedPrefix(event.elapsed_ms)} ${label(event.project)}: guard's pause: ${pauseText(event.pause, once)}`;
}

const STOP_TEXT: Readonly<Record<StopReason, string>> = {
  once: "after one poll",
  done: "no watched project is sending",
  interrupted: "interrupted",
  error: "stopped by an error",
};

/** The line that closes a run. */
export function stopLine(event: Stopped): string {
  const guards =
    event.tripped === 0
      ? "no guard tripped"
      : `${event.tripped} guard${event.tripped === 1 ? "" : "s"} tripped, ${event.paused} project${event.paused === 1 ? "" : "s"} paused${event.pending === 0 ? "" : `, ${event.pending} PAUSE${event.pending === 1 ? "" : "S"} STILL PENDING`}${endedWords(event.tripped - event.paused - event.pending)}`;
  return `watch: ${STOP_TEXT[event.reason]}: ${event.polls} poll${event.polls === 1 ? "" : "s"}, ${event.requests} request${event.requests === 1 ? "" : "s"} in ${formatDuration(event.elapsed_ms)}; ${guards}`;
}

/** `, 1 ENDED BEFORE ITS PAUSE LANDED`: trips whose project stopped sending first (the net did not hold). */
function endedWords(ended: number): string {
  if (ended <= 0) return "";
  return `, ${ended} ENDED BEFORE ${ended === 1 ? "ITS PAUSE" : "THEIR PAUSES"} LANDED`;
}

/** The columns of the live view's table. */
const HEADERS = ["PROJECT", "STATUS", "SENT", "DELIVERY", "FAILURE", "OPT-OUT", "GUARD"] as const;

/**
 * The live view's frame: a header line, then a table of the watched projects (address, status, sent
 * of recipients, rates, guard), each line cut to `width` columns when known.
 */
export function frameLines(
  projects: readonly WatchProjectLine[],
  poll: Polled | null,
  elapsedMs: number,
  width: number | null,
): string[] {
  const header = [
    `watch ${elapsedPrefix(elapsedMs)}`,
    poll === null ? "starting" : `poll ${poll.poll}`,
    poll === null ? null : `${poll.sending} sending`,
    poll?.email_sending === undefined
      ? null
      : `${poll.email_sending} email campaign${poll.email_sending === 1 ? "" : "s"} sending`,
    poll === null || poll.next_poll_ms === null ? null : `next poll in ${formatDuration(poll.next_poll_ms)}`,
  ]
    .filter((x) => x !== null)
    .join(" · ");
  const rows = projects.map((p) => {
    const known = p.source === "statistics";
    const r = rates(p);
    return [
      label(p),
      p.status ?? "?",
      known ? `${countCell(p.sent)} of ${countCell(p.recipients)}` : "?",
      percentCell(r.delivery, known),
      percentCell(r.failure, known),
      percentCell(r.optOut, known),
      shortGuard(p),
    ];
  });
  const widths = HEADERS.map((h, i) =>
    Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ""))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => pad(c, widths[i] ?? 0, i === 0 || i === 1 || i === cells.length - 1 ? "left" : "right"))
      .join("  ")
      .trimEnd();
  const lines = [header, line(HEADERS), ...rows.map(line)];
  return width === null ? lines : lines.map((l) => truncate(l, width));
}

function shortGuard(p: WatchProjectLine): string {
  if (p.guard === null) return "none";
  switch (p.judged) {
    case "no-guard":
      return "none";
    case "unknown":
      return "?";
    case "below-sample":
      return `waits for ${countCell(p.guard.min_sample)} sent`;
    case "within":
      return "ok";
    case "tripped":
      return "TRIPPED";
    case "above":
      return "above";
  }
}

function label(p: WatchProjectLine): string {
  return visibleText(p.address);
}

/**
 * The rates from the line's exact counts, by `status`'s definitions (`ratesOf`), so a view rounds
 * the exact fraction once, never the 4-decimal JSON rate again.
 */
function rates(p: WatchProjectLine): Rates {
  return ratesOf({
    sent: p.sent,
    delivered: p.delivered,
    failed: p.failed,
    optedOut: p.opted_out,
    replies: null,
    clicks: null,
    uniqueClicks: null,
    actualCostE4: null,
  });
}
