/**
 * The listener's record: one append-only JSON-lines file (`<state>/dedupe.jsonl`) that is at once
 * the dedupe index, the events taken on (their exact headers and body bytes), which of them were
 * printed, and the outbox of `--forward-to` (attempts, forwarded, dead-lettered). One file, so one
 * flush makes a batch of events durable for every purpose at once, and the dedupe index can never
 * disagree with the events. Pure: line formats and the fold that rebuilds the state on start.
 *
 * Line kinds (each one JSON object on one line):
 * - an event: `event_id`, `body_key`, `kind`, `at` (the dedupe entry; older records hold only
 *   these) and, since issue 23, `headers` and `body_base64` (the delivery, byte for byte) and
 *   `forward` (true when it entered the outbox);
 * - `{"t":"printed","event_id"}`: every event up to this one (in file order) was printed;
 * - `{"t":"attempt","event_id","attempt","at","status","error","next_at"}`: a forward that failed;
 * - `{"t":"forwarded","event_id","attempt","at","status"}`: the handler answered 2xx;
 * - `{"t":"dead","event_id","attempt","at","reason"}`: moved to the dead-letter file.
 */
import type { DedupeEntry } from "./dedupe.js";
import { wholeLines } from "./durable-log.js";

/** The headers of a delivery that are kept and forwarded (lower case). */
export const KEPT_HEADERS = [
  "content-type",
  "x-webhook-signature",
  "x-event-type",
  "x-event-id",
  "x-timestamp",
] as const;

/**
 * An event as the record keeps it. Invariant: `bodyBase64` decodes to the exact signed bytes;
 * `headers` holds only {@link KEPT_HEADERS}; `forward` says whether it entered the outbox.
 */
export interface RecordedEvent {
  readonly entry: DedupeEntry;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyBase64: string;
  readonly forward: boolean;
}

/** An event of the outbox not yet forwarded nor dead: how often it failed, and when it is due. */
export interface OutboxItem {
  readonly event: RecordedEvent;
  /** Failed attempts so far. */
  attempts: number;
  /** When the next attempt is due (ms since the epoch; 0: at once). */
  nextAt: number;
  lastStatus: number | null;
  lastError: string | null;
}

/** Why an event went to the dead-letter file. */
export type DeadReason = "attempts" | "age";

/** The marker lines that are not events. */
export type Marker =
  | { readonly t: "printed"; readonly event_id: string }
  | {
      readonly t: "attempt";
      readonly event_id: string;
      readonly attempt: number;
      readonly at: string;
      readonly status: number | null;
      readonly error: string | null;
      readonly next_at: string;
    }
  | {
      readonly t: "forwarded";
      readonly event_id: string;
      readonly attempt: number;
      readonly at: string;
      readonly status: number;
    }
  | {
      readonly t: "dead";
      readonly event_id: string;
      readonly attempt: number;
      readonly at: string;
      readonly reason: DeadReason;
    };

/** An event as one record line (with its newline). */
export function eventLine(event: RecordedEvent): string {
  const { entry } = event;
  // Written as text (one an event, issue 36): the bytes `JSON.stringify` gives the object with
  // these keys in this order (each value through it).
  return `{"event_id":${JSON.stringify(entry.event_id)},"body_key":${JSON.stringify(entry.body_key)},"kind":${JSON.stringify(entry.kind)},"at":${JSON.stringify(entry.at)},"forward":${event.forward},"headers":${JSON.stringify(event.headers)},"body_base64":${JSON.stringify(event.bodyBase64)}}\n`;
}

/** A marker as one record line (with its newline). */
export function markerLine(marker: Marker): string {
  return `${JSON.stringify(marker)}\n`;
}

/**
 * What a record file says, folded in file order. Invariants: `events` in file order, unique by
 * event id; `unprinted` are the events after the last `printed` marker (taken on, maybe
 * acknowledged, not yet printed); `outbox` holds the events with `forward` that are neither
 * forwarded nor dead, with their attempt counts; `torn` is the byte length of a last line without
 * its newline (a write cut short), which the caller truncates; `skipped` counts other lines that
 * are not understood.
 */
export interface RecordState {
  readonly events: RecordedEvent[];
  readonly unprinted: RecordedEvent[];
  readonly outbox: Map<string, OutboxItem>;
  readonly forwarded: number;
  readonly dead: number;
  readonly torn: number;
  readonly skipped: number;
  /** Bytes of the file that are whole lines (the file is truncated to this length when torn). */
  readonly wholeBytes: number;
}

export function foldRecord(bytes: Buffer): RecordState {
  const { text, wholeBytes, torn } = wholeLines(bytes);
  const events: RecordedEvent[] = [];
  const index = new Map<string, number>();
  const outbox = new Map<string, OutboxItem>();
  let printedThrough = -1;
  let skipped = 0;
  let forwarded = 0;
  let dead = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const value = parseObject(line);
    const event = value === null ? null : eventOf(value);
    if (event !== null) {
      const known = index.get(event.entry.event_id);
      if (known !== undefined) {
        skipped += 1;
        continue;
      }
      index.set(event.entry.event_id, events.length);
      events.push(event);
      if (event.forward)
        outbox.set(event.entry.event_id, {
          event,
          attempts: 0,
          nextAt: 0,
          lastStatus: null,
          lastError: null,
        });
      continue;
    }
    const marker = value === null ? null : markerOf(value);
    if (marker === null) {
      skipped += 1;
      continue;
    }
    switch (marker.t) {
      case "printed": {
        const at = index.get(marker.event_id);
        if (at !== undefined) printedThrough = Math.max(printedThrough, at);
        break;
      }
      case "attempt": {
        const item = outbox.get(marker.event_id);
        if (item !== undefined) {
          item.attempts = Math.max(item.attempts, marker.attempt);
          item.nextAt = Date.parse(marker.next_at);
          item.lastStatus = marker.status;
          item.lastError = marker.error;
        }
        break;
      }
      case "forwarded":
        if (outbox.delete(marker.event_id)) forwarded += 1;
        break;
      case "dead":
        if (outbox.delete(marker.event_id)) dead += 1;
        break;
    }
  }
  return {
    events,
    unprinted: events.slice(printedThrough + 1),
    outbox,
    forwarded,
    dead,
    torn,
    skipped,
    wholeBytes,
  };
}

/**
 * The lines of a compacted record: the dedupe entries kept (oldest first; an entry still in the
 * outbox with its delivery, the others without), the outbox items older than those, the attempt
 * counts of the outbox, and a `printed` marker (compaction runs only when every event was printed).
 */
export function compactedLines(
  entries: readonly DedupeEntry[],
  outbox: ReadonlyMap<string, OutboxItem>,
): string {
  const lines: string[] = [];
  const written = new Set<string>();
  const kept = new Set(entries.map((e) => e.event_id));
  for (const item of outbox.values())
    if (!kept.has(item.event.entry.event_id)) {
      lines.push(eventLine(item.event));
      written.add(item.event.entry.event_id);
    }
  for (const entry of entries) {
    const item = outbox.get(entry.event_id);
    lines.push(eventLine(item?.event ?? { entry, headers: {}, bodyBase64: "", forward: false }));
    written.add(entry.event_id);
  }
  for (const item of outbox.values())
    if (item.attempts > 0)
      lines.push(
        markerLine({
          t: "attempt",
          event_id: item.event.entry.event_id,
          attempt: item.attempts,
          at: new Date(item.nextAt).toISOString(),
          status: item.lastStatus,
          error: item.lastError,
          next_at: new Date(item.nextAt).toISOString(),
        }),
      );
  const last = [...written].at(-1);
  if (last !== undefined) lines.push(markerLine({ t: "printed", event_id: last }));
  return lines.join("");
}

function parseObject(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const str = (v: unknown): v is string => typeof v === "string";

function eventOf(value: Record<string, unknown>): RecordedEvent | null {
  const { event_id, body_key, kind, at, headers, body_base64, forward } = value;
  if (!str(event_id) || event_id === "" || !str(body_key) || body_key === "" || !str(kind) || !str(at))
    return null;
  const kept: Record<string, string> = {};
  if (headers !== null && typeof headers === "object")
    for (const name of KEPT_HEADERS) {
      const v = (headers as Record<string, unknown>)[name];
      if (str(v)) kept[name] = v;
    }
  const body = str(body_base64) ? body_base64 : "";
  return {
    entry: { event_id, body_key, kind, at },
    headers: kept,
    bodyBase64: body,
    // An event without its body (an older record) cannot be forwarded.
    forward: forward === true && body !== "",
  };
}

function markerOf(value: Record<string, unknown>): Marker | null {
  const { t, event_id, attempt, at } = value;
  if (!str(event_id)) return null;
  const attemptOk = typeof attempt === "number" && Number.isInteger(attempt) && attempt >= 1;
  const status = typeof value.status === "number" ? value.status : null;
  switch (t) {
    case "printed":
      return { t, event_id };
    case "attempt":
      if (!attemptOk || !str(at) || !str(value.next_at) || Number.isNaN(Date.parse(value.next_at)))
        return null;
      return {
        t,
        event_id,
        attempt,
        at,
        status,
        error: str(value.error) ? value.error : null,
        next_at: value.next_at,
      };
    case "forwarded":
      if (!attemptOk || !str(at) || status === null) return null;
      return { t, event_id, attempt, at, status };
    case "dead":
      if (!attemptOk || !str(at) || (value.reason !== "attempts" && value.reason !== "age")) return null;
      return { t, event_id, attempt, at, reason: value.reason };
    default:
      return null;
  }
}
