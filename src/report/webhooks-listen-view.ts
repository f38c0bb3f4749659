/**
 * The view of `webhooks listen`: one line per event, as text for a terminal or as JSON lines
 * (`--json`, each valid against schemas/webhook-listen-line.schema.json), chosen once by
 * {@link listenView}, so the command never branches on the format. Every value that came from a
 * delivery (ids, phone numbers, a contact's text) is shown escaped, so a delivery cannot put
 * control characters on the terminal. Pure apart from the writer it is given.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { diagnosticJson } from "../diagnostics/json.js";
import type { ListenerCounts, ListenerNote } from "../webhooks/receiver.js";
import type { VerifiedEvent } from "../webhooks/types.js";

/** What the listener shows, whatever the format. */
export interface ListenView {
  /** The first line (alone in its write). */
  listening(info: ListeningInfo, at: number): void;
  note(note: ListenerNote): void;
  /** Several notes with one write. */
  notes(notes: readonly ListenerNote[]): void;
  stopped(counts: ListenerCounts, outbox: number, at: number): void;
}

/** The view for `--json` (JSON lines) or a terminal (text), writing through `write`. */
export function listenView(json: boolean, write: (text: string) => void): ListenView {
  return json
    ? {
        listening: (info, at) => write(jsonLine(listeningJson(info, at))),
        note: (note) => write(noteJsonLine(note)),
        notes: (notes) => {
          if (notes.length === 0) return;
          let text = "";
          for (const note of notes) text += noteJsonLine(note);
          write(text);
        },
        stopped: (counts, outbox, at) => write(jsonLine(stoppedJson(counts, outbox, at))),
      }
    : {
        listening: (info) => write(listeningText(info)),
        note: (note) => write(noteText(note)),
        notes: (notes) => {
          if (notes.length > 0) write(notes.map(noteText).join(""));
        },
        stopped: (counts, outbox) => write(stoppedText(counts, outbox)),
      };
}

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
  /** Events of earlier runs still to forward. */
  readonly outbox: number;
  readonly deadLetterFile: string;
  readonly deadLetters: number;
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
    outbox: info.outbox,
    dead_letter: info.deadLetterFile,
    dead_letters: info.deadLetters,
  };
}

export function listeningText(info: ListeningInfo): string {
  return [
    `campaignctl webhooks: listening on ${info.url} (POST, any path)`,
    `  secrets: ${info.secrets.join(", ")} (from the environment)`,
    `  events:  ${info.events === null ? "every kind" : info.events.join(", ")}`,
    `  dedupe:  ${info.stateFile} (${info.remembered} event${info.remembered === 1 ? "" : "s"} remembered)`,
    `  forward: ${forwardText(info)}`,
    ...(info.deadLetters > 0
      ? [
          `  dead-letter: ${info.deadLetterFile} holds ${info.deadLetters} event${info.deadLetters === 1 ? "" : "s"} not forwarded`,
        ]
      : []),
    "Press Ctrl-C to stop.",
    "",
  ].join("\n");
}

function forwardText(info: ListeningInfo): string {
  if (info.forwardTo !== null) return `${info.forwardTo} (${info.outbox} waiting from earlier runs)`;
  return info.outbox === 0
    ? "no (--forward-to URL hands events on)"
    : `no: ${info.outbox} event${info.outbox === 1 ? "" : "s"} of earlier runs wait in the outbox for --forward-to`;
}

/** The diagnostic of a forward attempt that did not get a 2xx, or null when it did. */
export function forwardDiagnostic(note: Extract<ListenerNote, { type: "forwarded" }>): Diagnostic | null {
  const { status, error } = note.result;
  if (status !== null && status >= 200 && status < 300) return null;
  const what =
    status === null
      ? `The handler at ${note.url} did not answer event ${printable(note.eventId)} (attempt ${note.attempt}): ${error ?? "no answer"}`
      : `The handler at ${note.url} answered ${status} to event ${printable(note.eventId)} (attempt ${note.attempt})`;
  return note.nextAt === null
    ? { severity: "error", code: "webhooks.forward-failed", message: what }
    : {
        severity: "warning",
        code: "webhooks.forward-retry",
        message: `${what}; tried again at ${iso(note.nextAt)}`,
        hint: "The event stays in the outbox (kept across restarts) until the handler answers 2xx or a limit passes",
      };
}

export function noteJson(note: ListenerNote): Record<string, unknown> {
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
        recovered: note.recovered,
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
        event_id: note.eventId,
        url: note.url,
        ok: diagnostic === null,
        status: note.result.status,
        error: note.result.error,
        ms: note.result.ms,
        attempt: note.attempt,
        next_attempt_at: note.nextAt === null ? null : iso(note.nextAt),
        diagnostic: diagnostic === null ? null : diagnosticJson(diagnostic),
      };
    }
    case "dead-lettered":
      return {
        type: "dead-lettered",
        at: iso(note.at),
        event_id: note.eventId,
        event_type: note.kind,
        attempts: note.attempts,
        reason: note.reason,
        file: note.file,
        diagnostic: diagnosticJson(note.diagnostic),
      };
    case "problem":
      return { type: "problem", at: iso(note.at), diagnostic: diagnosticJson(note.diagnostic) };
  }
}

/** A note as its JSON line: `jsonLine(noteJson(note))`, the `accepted` line built as text. */
export function noteJsonLine(note: ListenerNote): string {
  return note.type === "accepted" ? acceptedJsonLine(note) : jsonLine(noteJson(note));
}

/** The last instant written as ISO 8601, and how: a batch's lines share their `at`, a second's deliveries their `timestamp`. */
function lastIso(): (ms: number) => string {
  let last = Number.NaN;
  let text = "";
  return (ms) => {
    if (ms !== last) {
      text = iso(ms);
      last = ms;
    }
    return text;
  };
}
const atIso = lastIso();
const timestampIso = lastIso();

/**
 * The `accepted` line, byte for byte `jsonLine(noteJson(note))` (same keys in the same order, each
 * value through `JSON.stringify`; an ISO time needs no escape), written as text: the listener
 * prints one an event (issue 36), and building the object to serialize it cost twice as much.
 */
function acceptedJsonLine(note: Extract<ListenerNote, { type: "accepted" }>): string {
  const { event } = note;
  return `{"type":"accepted","at":"${atIso(note.at)}","event_id":${JSON.stringify(event.eventId)},"event_type":${JSON.stringify(event.kind)},"timestamp":"${timestampIso(event.timestampMs)}","secret":${JSON.stringify(event.secretName)},"body_key":${JSON.stringify(event.bodyKey)},"payload":${JSON.stringify(event.payload)},"recovered":${note.recovered}}\n`;
}

export function noteText(note: ListenerNote): string {
  switch (note.type) {
    case "accepted":
      return `${clockText(note.at)}  ${printable(note.event.kind, 40).padEnd(17)}  ${printable(note.event.eventId)}  ${summary(note.event)}${note.recovered ? " (recovered on start)" : ""}\n`;
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
      const next = note.nextAt === null ? "" : `, again at ${clockText(note.nextAt)}`;
      return `${clockText(note.at)}    -> ${diagnostic === null ? "forwarded" : "forward failed"} ${printable(note.eventId)} (attempt ${note.attempt}): ${outcome}${diagnostic === null ? "" : ` (${diagnostic.code}${next})`}\n`;
    }
    case "dead-lettered":
      return withHint(
        `${clockText(note.at)}  ${note.diagnostic.severity}[${note.diagnostic.code}]: ${printable(note.diagnostic.message, 400)}`,
        note.diagnostic,
      );
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

export function stoppedJson(counts: ListenerCounts, outbox: number, at: number): Record<string, unknown> {
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
    dead_lettered: counts.deadLettered,
    outbox,
  };
}

export function stoppedText(counts: ListenerCounts, outbox: number): string {
  const forwards =
    counts.forwarded + counts.forwardFailed + outbox === 0
      ? ""
      : `; forwarded ${counts.forwarded}, ${counts.forwardFailed} failed attempt${counts.forwardFailed === 1 ? "" : "s"}, ${counts.deadLettered} to dead-letter, ${outbox} left in the outbox`;
  return `stopped: ${counts.accepted} accepted, ${counts.rejected} rejected (${counts.duplicates} duplicate${counts.duplicates === 1 ? "" : "s"}, ${counts.replays} replay${counts.replays === 1 ? "" : "s"}), ${counts.ignored} ignored${forwards}\n`;
}

/** One JSON line. */
export const jsonLine = (value: Record<string, unknown>): string => `${JSON.stringify(value)}\n`;
