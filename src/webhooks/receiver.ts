/**
 * The listener's core, between the HTTP server and the work: each delivery is verified
 * (verify.ts), filtered by kind, checked against the dedupe record and queued, and answered at once;
 * the queued work (remember the event on disk, report it, forward it) runs afterwards, one event at
 * a time (queue.ts). Everything that happens is reported as a {@link ListenerNote}. No IO of its
 * own: the clock, the disk (`remember`) and the handler (`forwarder`) are handed in.
 */
import type { DedupeEntry, DedupeRecord } from "./dedupe.js";
import type { Forwarder, ForwardResult } from "./forward.js";
import { WorkQueue } from "./queue.js";
import {
  type Delivery,
  type Rejection,
  type RejectReason,
  reject,
  type VerifiedEvent,
  type WebhookSecret,
} from "./types.js";
import { verifyDelivery } from "./verify.js";

/** How many accepted events may wait for their work before deliveries are answered 503. */
export const QUEUE_LIMIT = 10_000;

/** How many events are forwarded at once (to one handler, over kept-alive connections). */
export const FORWARD_CONCURRENCY = 8;

/**
 * What the listener reports, in order. Invariants: `at` is the listener's clock (ms since the
 * epoch); `accepted` notes come in arrival order, each before its event's `forwarded` note; a
 * rejected delivery is never accepted.
 */
export type ListenerNote =
  | { readonly type: "accepted"; readonly at: number; readonly event: VerifiedEvent }
  | { readonly type: "rejected"; readonly at: number; readonly rejection: Rejection }
  | {
      readonly type: "forwarded";
      readonly at: number;
      readonly event: VerifiedEvent;
      readonly url: string;
      readonly result: ForwardResult;
    };

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
}

export interface ReceiverOptions {
  /** Invariant: not empty. */
  readonly secrets: readonly WebhookSecret[];
  /** The listener's clock (ms since the epoch), injected: timestamps are judged against it. */
  readonly clock: () => number;
  readonly toleranceMs?: number;
  /** Kinds to handle; others are verified, answered 200 and ignored. Null: every kind. */
  readonly events: ReadonlySet<string> | null;
  readonly dedupe: DedupeRecord;
  /** Keeps newly accepted events (the CLI appends them to the record file) before they are reported or forwarded. */
  readonly remember: (entries: readonly DedupeEntry[]) => Promise<void>;
  readonly forwarder: Forwarder | null;
  readonly note: (note: ListenerNote) => void;
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
  };
  private readonly queue: WorkQueue<Job>;

  constructor(private readonly options: ReceiverOptions) {
    this.queue = new WorkQueue((batch) => this.work(batch), options.queueLimit ?? QUEUE_LIMIT, options.onBug);
  }

  /** Judges one delivery and says what to answer; the work it queues runs after the answer. */
  receive(delivery: Delivery): Answer {
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
    const seen = options.dedupe.seen(event.eventId, event.bodyKey);
    switch (seen.kind) {
      case "duplicate-event":
        return this.refused(
          reject(
            "duplicate-event",
            delivery.headers,
            `Event ${event.eventId} was already taken on at ${seen.first.at}: a retried delivery, not handled again`,
          ),
        );
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
      at: new Date(options.clock()).toISOString(),
    };
    if (!this.queue.push({ event, entry }))
      return this.refused(
        reject(
          "queue-full",
          delivery.headers,
          `${this.queue.pending} events are waiting for their work; event ${event.eventId} is refused for now`,
          "The work (the record on disk, the output, --forward-to) is slower than the deliveries: the sender retries this one later",
        ),
      );
    options.dedupe.add(entry);
    return answer(200, { received: true, event_id: event.eventId });
  }

  /** Counts and reports a delivery refused before verification (wrong method, body too large). */
  refuse(reason: RejectReason, headers: Delivery["headers"], message: string): Answer {
    return this.refused(reject(reason, headers, message));
  }

  /** Resolves once every queued event has been remembered, reported and forwarded. */
  drained(): Promise<void> {
    return this.queue.drained();
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
   * A batch of accepted events: remembered together (one write), reported in arrival order, then
   * forwarded, up to {@link FORWARD_CONCURRENCY} at a time (deliveries are not ordered anyway: a
   * retry overtakes later events).
   */
  private async work(batch: readonly Job[]): Promise<void> {
    const { options } = this;
    await options.remember(batch.map((job) => job.entry));
    for (const { event } of batch) {
      this.counts.accepted += 1;
      options.note({ type: "accepted", at: options.clock(), event });
    }
    const { forwarder } = options;
    if (forwarder === null) return;
    let next = 0;
    const lane = async (): Promise<void> => {
      for (let job = batch[next++]; job !== undefined; job = batch[next++]) {
        const result = await forwarder.forward(job.event);
        if (result.status !== null && result.status >= 200 && result.status < 300) this.counts.forwarded += 1;
        else this.counts.forwardFailed += 1;
        options.note({
          type: "forwarded",
          at: options.clock(),
          event: job.event,
          url: forwarder.url,
          result,
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(FORWARD_CONCURRENCY, batch.length) }, lane));
  }
}

/** An accepted event and its dedupe entry, waiting for its work. */
interface Job {
  readonly event: VerifiedEvent;
  readonly entry: DedupeEntry;
}

function answer(status: number, body: Record<string, unknown>): Answer {
  return { status, body: JSON.stringify(body) };
}
