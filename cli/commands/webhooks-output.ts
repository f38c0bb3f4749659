/**
 * What `webhooks listen` prints: one line per event, as text for a terminal or as JSON lines
 * (`--json`, each valid against schemas/webhook-listen-line.schema.json). Every value that came
 * from a delivery (ids, phone numbers, a contact's text) is shown escaped, so a delivery cannot put
 * control characters on the terminal. Pure.
 */
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { diagnosticJson } from "../../src/diagnostics/json.js";
import type { ListenerCounts, ListenerNote } from "../../src/webhooks/receiver.js";
import type { VerifiedEvent } from "../../src/webhooks/types.js";

/** The format_version of the `listening` line (the first line of a `--json` run). */
export const LISTEN_FORMAT_VERSION = 1;

/** What the listener was started with, for its first line. Invariant: `secrets` are names, never values. */
export interface ListeningInfo {
  readonly url: string;
  readonly secrets: readonly string[];
  readonly events: readonly string[] | null;
  readonly forwardTo: string | null;
  readonly stateFile: string;
  readonly remembered: number;
}

/** A problem while serving (the dedupe record became unwritable), reported and lived with. */
export interface ProblemNote {
  readonly type: "problem";
  readonly at: number;
  readonly diagnostic: Diagnostic;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** `2026-12-01T15:00:00Z`: the time column of the text lines (whole seconds). */
const clockText = (ms: number): string => `${iso(ms).slice(0, 19)}Z`;

/** Control characters, bidirectional overrides and line separators: never sent to a terminal as they are. */
const UNPRINTABLE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** A value from a delivery as text: control characters escaped, at most `max` characters. */
export function printable(value: unknown, max = 80): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  const safe = text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe;
}

export function listeningJson(info: ListeningInfo, at: number): Record<string, unknown> {
  return {
    type: "listening",
    format_version: LISTEN_FORMAT_VERSION,
    at: iso(at),
    url: info.url,
    secrets: info.secrets,
    events: info.events,
    forward_to: info.forwardTo,
    state: info.stateFile,
    remembered: info.remembered,
  };
}

export function listeningText(info: ListeningInfo): string {
  return [
    `campaignctl webhooks: listening on ${info.url} (POST, any path)`,
    `  secrets: ${info.secrets.join(", ")} (from the environment)`,
    `  events:  ${info.events === null ? "every kind" : info.events.join(", ")}`,
    `  dedupe:  ${info.stateFile} (${info.remembered} event${info.remembered === 1 ? "" : "s"} remembered)`,
    `  forward: ${info.forwardTo ?? "no (--forward-to URL hands events on)"}`,
    "Press Ctrl-C to stop.",
    "",
  ].join("\n");
}

/** The diagnostic of a forward that did not get a 2xx, or null when it did. */
export function forwardDiagnostic(note: Extract<ListenerNote, { type: "forwarded" }>): Diagnostic | null {
  const { status, error } = note.result;
  if (status !== null && status >= 200 && status < 300) return null;
  return {
    severity: "error",
    code: "webhooks.forward-failed",
    message:
      status === null
        ? `The handler at ${note.url} did not answer event ${printable(note.event.eventId)}: ${error ?? "no answer"}`
        : `The handler at ${note.url} answered ${status} to event ${printable(note.event.eventId)}`,
    hint: "The event was acknowledged to the sender and is not forwarded again: handle it from the printed line, or replay it to the handler",
  };
}

export function noteJson(note: ListenerNote | ProblemNote): Record<string, unknown> {
  switch (note.type) {
    case "accepted":
      return {
        type: "accepted",
        at: iso(note.at),
        event_id: note.event.eventId,
        event_type: note.event.kind,
        timestamp: iso(note.event.timestampMs),
        secret: note.event.secretName,
        body_key: note.event.bodyKey,
        payload: note.event.payload,
      };
    case "rejected":
      return {
        type: "rejected",
        at: iso(note.at),
        status: note.rejection.status,
        event_id: note.rejection.eventId,
        event_type: note.rejection.kind,
        diagnostic: diagnosticJson(note.rejection.diagnostic),
      };
    case "forwarded": {
      const diagnostic = forwardDiagnostic(note);
      return {
        type: "forwarded",
        at: iso(note.at),
        event_id: note.event.eventId,
        url: note.url,
        ok: diagnostic === null,
        status: note.result.status,
        error: note.result.error,
        ms: note.result.ms,
        diagnostic: diagnostic === null ? null : diagnosticJson(diagnostic),
      };
    }
    case "problem":
      return { type: "problem", at: iso(note.at), diagnostic: diagnosticJson(note.diagnostic) };
  }
}

export function noteText(note: ListenerNote | ProblemNote): string {
  switch (note.type) {
    case "accepted":
      return `${clockText(note.at)}  ${printable(note.event.kind, 40).padEnd(17)}  ${printable(note.event.eventId)}  ${summary(note.event)}\n`;
    case "rejected": {
      const { rejection } = note;
      return withHint(
        `${clockText(note.at)}  rejected ${rejection.status}  ${printable(rejection.eventId ?? "-")}  ${rejection.diagnostic.code}: ${printable(rejection.diagnostic.message, 400)}`,
        rejection.diagnostic,
      );
    }
    case "forwarded": {
      const diagnostic = forwardDiagnostic(note);
      const { status, error, ms } = note.result;
      const outcome = status === null ? `${error ?? "no answer"} after ${ms} ms` : `${status} in ${ms} ms`;
      return `${clockText(note.at)}    -> ${diagnostic === null ? "forwarded" : "forward failed"} ${printable(note.event.eventId)}: ${outcome}${diagnostic === null ? "" : ` (${diagnostic.code})`}\n`;
    }
    case "problem":
      return withHint(
        `${clockText(note.at)}  ${note.diagnostic.severity}[${note.diagnostic.code}]: ${note.diagnostic.message}`,
        note.diagnostic,
      );
  }
}

function withHint(line: string, diagnostic: Diagnostic): string {
  return diagnostic.hint === undefined ? `${line}\n` : `${line}\n    hint: ${diagnostic.hint}\n`;
}

/**
 * One event in a few words: a message event's status, numbers and message id; a reply's numbers,
 * text and opt-out flag; any other body, its field names.
 */
function summary(event: VerifiedEvent): string {
  const p = event.payload;
  if (event.kind === "message.replied")
    return `${printable(p.from, 20)} -> ${printable(p.to, 20)}: ${printable(JSON.stringify(p.text ?? ""), 60)}${p.is_opt_out === true ? " (opt-out)" : ""}${p.is_opt_in === true ? " (opt-in)" : ""}`;
  if (typeof p.status === "string")
    return `${printable(p.status, 12)}${p.error_code ? ` ${printable(p.error_code, 12)}` : ""} ${printable(p.from, 20)} -> ${printable(p.to, 20)} (message ${printable(p.message_id, 40)})`;
  return `fields: ${printable(Object.keys(p).join(", "), 60)}`;
}

export function stoppedJson(counts: ListenerCounts, at: number): Record<string, unknown> {
  return {
    type: "stopped",
    at: iso(at),
    accepted: counts.accepted,
    ignored: counts.ignored,
    rejected: counts.rejected,
    duplicates: counts.duplicates,
    replays: counts.replays,
    forwarded: counts.forwarded,
    forward_failed: counts.forwardFailed,
  };
}

export function stoppedText(counts: ListenerCounts): string {
  const forwards =
    counts.forwarded + counts.forwardFailed === 0
      ? ""
      : `; forwarded ${counts.forwarded}, ${counts.forwardFailed} failed`;
  return `stopped: ${counts.accepted} accepted, ${counts.rejected} rejected (${counts.duplicates} duplicate${counts.duplicates === 1 ? "" : "s"}, ${counts.replays} replay${counts.replays === 1 ? "" : "s"}), ${counts.ignored} ignored${forwards}\n`;
}

/** One JSON line. */
export const jsonLine = (value: Record<string, unknown>): string => `${JSON.stringify(value)}\n`;
