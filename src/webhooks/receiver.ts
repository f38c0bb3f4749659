/**
 * The listener's core, between the HTTP server and the record: each delivery is verified
 * (verify.ts), filtered by kind and checked against the dedupe index; a new event is queued for the
 * record and answered only once it is on disk (written and flushed), printed, and in the outbox
 * when forwarding. Group commit: the events that arrive while one flush runs go to disk together in
 * the next (queue.ts), and that next flush starts before the batch just flushed is printed and
 * answered. A retry of an event still on its way to disk waits for that flush. Everything that
 * happens is reported as a {@link ListenerNote}. No IO of its own: the clock and the record
 * (`store`) are handed in.
 */

import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { DedupeEntry, DedupeRecord } from "./dedupe.js";
import type { ForwardResult } from "./forward.js";
import { WorkQueue } from "./queue.js";
import { eventLine, KEPT_HEADERS, type Marker, type RecordedEvent } from "./record.js";
import {
  type Delivery,
  type Rejection,
  type RejectReason,
  reject,
  type VerifiedEvent,
  type WebhookSecret,
} from "./types.js";
import { verifyDelivery } from "./verify.js";

/** How many accepted events may wait for the disk before deliveries are answered 503. */
export const QUEUE_LIMIT = 10_000;

/**
 * What the listener reports, in order. Invariants: `at` is the listener's clock (ms since the
 * epoch); an `accepted` note comes after its event is on disk and before the sender is answered
 * 2xx, once per event across restarts (`recovered`: printed on start, the run that took it on
 * stopped before printing it); a rejected delivery is never accepted; `forwarded` notes come after
 * the event's `accepted` note, one per attempt.
 */
export type ListenerNote =
  | {
      readonly type: "accepted";
      readonly at: number;
      readonly event: VerifiedEvent;
      readonly recovered: boolean;
    }
  | { readonly type: "rejected"; readonly at: number; readonly rejection: Rejection }
  | {
      readonly type: "forwarded";
      readonly at: number;
      readonly eventId: string;
      readonly url: string;
      readonly attempt: number;
      readonly result: ForwardResult;
      /** When the next attempt is due; null when this one succeeded or the event went to dead-letter. */
      readonly nextAt: number | null;
    }
  | {
      readonly type: "dead-lettered";
      readonly at: number;
      readonly eventId: string;
      readonly kind: string;
      readonly attempts: number;
      readonly reason: "attempts" | "age";
      readonly file: string;
      readonly diagnostic: Diagnostic;
    }
  | { readonly type: "problem"; readonly at: number; readonly diagnostic: Diagnostic };

/**
 * What to answer the sender: a status and a small JSON body. A refusal's body carries only its code
 * (the message, with the secrets' variable names, is for the listener's own output).
 */
export interface Answer {
  readonly status: number;
  readonly body: string;
}

/** Running totals. Invariant: every delivery counts once, in `accepted`, `ignored` or one rejection reason. */
export interface ListenerCounts {
  accepted: number;
  ignored: number;
  rejected: number;
  duplicates: number;
  replays: number;
  forwarded: number;
  forwardFailed: number;
  deadLettered: number;
}

/** The record as the receiver uses it (record-store.ts; tests may hand in their own). */
export interface ReceiverStore {
  readonly record: DedupeRecord;
  /**
   * Writes and flushes the events (`lines`: their record lines, {@link eventLine} each, built
   * beforehand); rejects when that fails. Appends before it returns (the flush then runs elsewhere).
   */
  commit(events: readonly RecordedEvent[], lines: string): Promise<void>;
  /** Appends markers at once (synchronously). */
  mark(markers: readonly Marker[]): void;
  /** Whether the record has grown enough to be compacted. */
  compactionDue(): boolean;
  /**
   * Replaces the record by its compaction (synchronously). Called only with no flush running and
   * every flushed event printed; `unwritten` are the events remembered but not yet written (queued
   * for the disk), which the compaction must leave out: written there as printed, a crash before
   * their own flush would make the sender's retry a duplicate, never printed.
   */
  compact(unwritten: ReadonlySet<string>): void;
}

export interface ReceiverOptions {
  /** Invariant: not empty. */
  readonly secrets: readonly WebhookSecret[];
  /** The listener's clock (ms since the epoch), injected: timestamps are judged against it. */
  readonly clock: () => number;
  readonly toleranceMs?: number;
  /** Kinds to handle; others are verified, answered 200 and ignored. Null: every kind. */
  readonly events: ReadonlySet<string> | null;
  readonly store: ReceiverStore;
  /** Takes events that are on disk into the outbox (null: no --forward-to). */
  readonly outbox: { add(events: readonly RecordedEvent[]): void } | null;
  readonly note: (note: ListenerNote) => void;
  /**
   * Reports several notes with one write (a batch's `accepted` notes, printed right before their
   * `printed` marker, so a kill between the two repeats as few lines as it can). Default: `note` each.
   */
  readonly notes?: (notes: readonly ListenerNote[]) => void;
  /**
   * Resolves once everything the notes printed so far has been handed to the OS (not queued in the
   * process, where a kill loses it). Awaited once per batch, after its print and before its
   * `printed` marker, so the marker (and the answer) never runs ahead of the output. Default: at once.
   */
  readonly printed?: () => Promise<void>;
  /** A job that threw: a bug, since jobs report their own failures. */
  readonly onBug: (error: unknown) => void;
  readonly queueLimit?: number;
}

export class Receiver {
  readonly counts: ListenerCounts = {
    accepted: 0,
    ignored: 0,
    rejected: 0,
    duplicates: 0,
    replays: 0,
    forwarded: 0,
    forwardFailed: 0,
    deadLettered: 0,
  };
  private readonly queue: WorkQueue<Job>;
  /** Events written but not yet flushed: a retry of one waits for its flush. */
  private readonly inFlight = new Map<string, Promise<boolean>>();
  /** The last instant written as ISO 8601: the deliveries of one millisecond share the string. */
  private lastAt = { ms: Number.NaN, iso: "" };
  /** Printing waits for this (see {@link printAfter}); null once it has resolved. */
  private printGate: Promise<void> | null = null;

  constructor(private readonly options: ReceiverOptions) {
    // A batch starts after the loop has read every delivery that arrived in this turn: one flush for all.
    this.queue = new WorkQueue<Job>(
      {
        write: (batch) => this.write(batch),
        publish: (batch) => this.publish(batch),
        maintenanceDue: () => options.store.compactionDue(),
        maintain: (waiting) => options.store.compact(new Set(waiting.map((job) => job.event.eventId))),
      },
      options.queueLimit ?? QUEUE_LIMIT,
      options.onBug,
      256,
      (run) => setImmediate(run),
    );
  }

  /** Judges one delivery and says what to answer, once what was accepted is on disk. */
  async receive(delivery: Delivery): Promise<Answer> {
    const { options } = this;
    const verdict = verifyDelivery(delivery, {
      secrets: options.secrets,
      nowMs: options.clock(),
      toleranceMs: options.toleranceMs,
    });
    if (!verdict.ok) return this.refused(verdict.rejection);
    const { event } = verdict;
    if (options.events !== null && !options.events.has(event.kind)) {
      this.counts.ignored += 1;
      return answer(200, { received: true, ignored: true });
    }
    const seen = options.store.record.seen(event.eventId, event.bodyKey);
    switch (seen.kind) {
      case "duplicate-event": {
        const pending = this.inFlight.get(event.eventId);
        if (pending !== undefined && !(await pending)) return this.notRecorded(delivery, event.eventId);
        return this.refused(
          reject(
            "duplicate-event",
            delivery.headers,
            `Event ${event.eventId} was already taken on at ${seen.first.at}: a retried delivery, not handled again`,
          ),
        );
      }
      case "replayed-body":
        return this.refused(
          reject(
            "replayed-body",
            delivery.headers,
            `The signed body of event ${seen.first.event_id} (${event.bodyKey}), taken on at ${seen.first.at}, came again as event ${event.eventId}: a replay, not handled again`,
            "The signature covers only the body, so a captured delivery can be resent with a fresh X-Event-ID and X-Timestamp",
          ),
        );
      case "new":
        break;
    }
    const entry: DedupeEntry = {
      event_id: event.eventId,
      body_key: event.bodyKey,
      kind: event.kind,
      at: this.isoAt(options.clock()),
    };
    let settle: (ok: boolean) => void = () => {};
    const done = new Promise<boolean>((resolve) => {
      settle = resolve;
    });
    const recorded = recordedOf(event, entry, options.outbox !== null);
    // The record line is built now, while the disk flushes an earlier batch: not between two flushes.
    if (!this.queue.push({ event, recorded, line: eventLine(recorded), settle }))
      return this.refused(
        reject(
          "queue-full",
          delivery.headers,
          `${this.queue.pending} events are waiting for the disk; event ${event.eventId} is refused for now`,
          "The disk is slower than the deliveries: the sender retries this one later",
        ),
      );
    options.store.record.addNew(entry);
    this.inFlight.set(event.eventId, done);
    const ok = await done;
    this.inFlight.delete(event.eventId);
    if (!ok) return this.notRecorded(delivery, event.eventId);
    return answer(200, { received: true, event_id: event.eventId });
  }

  private isoAt(ms: number): string {
    if (ms !== this.lastAt.ms) this.lastAt = { ms, iso: new Date(ms).toISOString() };
    return this.lastAt.iso;
  }

  /** Counts and reports a delivery refused before verification (wrong method, body too large). */
  refuse(reason: RejectReason, headers: Delivery["headers"], message: string): Answer {
    return this.refused(reject(reason, headers, message));
  }

  /**
   * Holds every batch's print until `done` resolves: the start's recovered events, printed and
   * being marked, must not be followed by a batch's lines before their own marker is written.
   */
  printAfter(done: Promise<void>): void {
    const gate = done.finally(() => {
      if (this.printGate === gate) this.printGate = null;
    });
    this.printGate = gate;
  }

  /** Resolves once every queued event is on disk and printed. */
  drained(): Promise<void> {
    return this.queue.drained();
  }

  private notRecorded(delivery: Delivery, eventId: string): Answer {
    return this.refused(
      reject(
        "not-recorded",
        delivery.headers,
        `Event ${eventId} could not be written to the record on disk: not acknowledged`,
        "The sender retries it; see the problem reported with the record's path",
      ),
    );
  }

  private refused(rejection: Rejection): Answer {
    this.counts.rejected += 1;
    if (rejection.reason === "duplicate-event") this.counts.duplicates += 1;
    if (rejection.reason === "replayed-body") this.counts.replays += 1;
    this.options.note({ type: "rejected", at: this.options.clock(), rejection });
    return rejection.status < 300
      ? answer(rejection.status, { received: true, duplicate: true })
      : answer(rejection.status, { received: false, code: rejection.diagnostic.code });
  }

  /**
   * A batch of accepted events, written and flushed together (one flush): true once they are on
   * disk; false when that failed (reported, forgotten, answered 503).
   */
  private async write(batch: readonly Job[]): Promise<boolean> {
    const { options } = this;
    const recorded: RecordedEvent[] = [];
    let lines = "";
    for (const job of batch) {
      recorded.push(job.recorded);
      lines += job.line;
    }
    try {
      await options.store.commit(recorded, lines);
      return true;
    } catch (error) {
      for (const job of batch) options.store.record.remove(job.event.eventId);
      options.note({
        type: "problem",
        at: options.clock(),
        diagnostic: {
          severity: "error",
          code: "webhooks.not-recorded",
          message: `${batch.length} event${batch.length === 1 ? "" : "s"} could not be written to the record: ${error instanceof Error ? error.message : String(error)}`,
          hint: "They were answered 503 and will be sent again; free space or fix the --state directory",
        },
      });
      for (const job of batch) job.settle(false);
      return false;
    }
  }

  /**
   * A batch on disk: printed in arrival order, and once the print was handed to the OS marked
   * printed (one synchronous write), then handed to the outbox; only then are their senders answered.
   */
  private async publish(batch: readonly Job[]): Promise<void> {
    const { options } = this;
    if (this.printGate !== null) await this.printGate;
    const at = options.clock();
    // Pushed, not `batch.map` (issue 36): the array Array.prototype.map makes once this method is
    // compiled is not of the kind its consumers were compiled for, so each run compiled the
    // listener's hottest code twice (record-store.ts writes the marker below alike, unmapped).
    const accepted: ListenerNote[] = [];
    for (const job of batch) accepted.push({ type: "accepted", at, event: job.event, recovered: false });
    this.counts.accepted += batch.length;
    if (options.notes === undefined) for (const note of accepted) options.note(note);
    else options.notes(accepted);
    if (options.printed !== undefined) await options.printed();
    const last = batch.at(-1);
    if (last !== undefined) options.store.mark([{ t: "printed", event_id: last.event.eventId }]);
    if (options.outbox !== null) options.outbox.add(batch.map((job) => job.recorded));
    for (const job of batch) job.settle(true);
  }
}

/** An accepted event, as the record keeps it, waiting for the disk. */
interface Job {
  readonly event: VerifiedEvent;
  readonly recorded: RecordedEvent;
  /** `recorded` as its record line. */
  readonly line: string;
  readonly settle: (ok: boolean) => void;
}

/** The event as the record keeps it: its dedupe entry, kept headers and exact body bytes. */
export function recordedOf(event: VerifiedEvent, entry: DedupeEntry, forward: boolean): RecordedEvent {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = event.delivery.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  return { entry, headers, bodyBase64: event.delivery.body.toString("base64"), forward };
}

function answer(status: number, body: Record<string, unknown>): Answer {
  return { status, body: JSON.stringify(body) };
}
