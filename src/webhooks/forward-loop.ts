/**
 * The forwarder of the outbox: hands every event of the outbox to the handler (`--forward-to`), up
 * to {@link FORWARD_CONCURRENCY} at a time, and keeps at it until the handler answers 2xx: each
 * attempt is marked in the record (attempt number, status or error, when the next is due), so a
 * restarted listener resumes where this one stopped with the same counts; an event past its limits
 * (outbox.ts) is written to the dead-letter file and reported. The clock and the sleep are handed
 * in (tests run it on virtual time).
 */
import type { Forwarder } from "./forward.js";
import { afterAttempt, type ForwardLimits } from "./outbox.js";
import type { ListenerCounts, ListenerNote } from "./receiver.js";
import type { DeadReason, Marker, OutboxItem, RecordedEvent } from "./record.js";

/** How many events are forwarded at once (to one handler, over kept-alive connections). */
export const FORWARD_CONCURRENCY = 8;

/** Sleeps `ms` (of the clock handed in) or until `signal` aborts, whichever comes first; never rejects. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** The record as the forwarder uses it (record-store.ts). */
export interface OutboxStore {
  readonly outbox: Map<string, OutboxItem>;
  mark(markers: readonly Marker[]): void;
  deadLetter(item: OutboxItem, reason: DeadReason, at: number, line: Record<string, unknown>): void;
}

export interface ForwardLoopOptions {
  readonly forwarder: Forwarder;
  readonly store: OutboxStore;
  readonly limits: ForwardLimits;
  readonly clock: () => number;
  readonly sleep: Sleep;
  readonly note: (note: ListenerNote) => void;
  readonly counts: ListenerCounts;
  /** The dead-letter file as shown to the user. */
  readonly deadLetterFile: string;
  readonly onBug: (error: unknown) => void;
}

export class ForwardLoop {
  /** Ids due now, oldest first. */
  private readonly ready: string[] = [];
  /** Ids waiting for their next attempt. */
  private readonly waiting = new Set<string>();
  private readonly inFlight = new Set<string>();
  private wake = new AbortController();
  private stopping = false;
  private running: Promise<void> | null = null;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: ForwardLoopOptions) {
    for (const item of options.store.outbox.values()) this.waiting.add(item.event.entry.event_id);
  }

  /** Events now on disk: into the outbox, due at once. */
  add(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (!event.forward) continue;
      const id = event.entry.event_id;
      this.options.store.outbox.set(id, { event, attempts: 0, nextAt: 0, lastStatus: null, lastError: null });
      this.ready.push(id);
    }
    this.kick();
  }

  start(): void {
    this.running ??= this.run().catch(this.options.onBug);
  }

  /** Starts no new attempt, waits for those in flight; what is left stays in the record for the next run. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.kick();
    await this.running;
  }

  /** Resolves when no attempt is in flight and none is due (the loop sleeps): for tests on virtual time. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Events in the outbox. */
  get size(): number {
    return this.options.store.outbox.size;
  }

  private isIdle(): boolean {
    return this.inFlight.size === 0 && this.ready.length === 0 && this.dueWaiting() === 0;
  }

  private dueWaiting(): number {
    const now = this.options.clock();
    let due = 0;
    for (const id of this.waiting) if ((this.options.store.outbox.get(id)?.nextAt ?? 0) <= now) due += 1;
    return due;
  }

  private kick(): void {
    this.wake.abort();
  }

  private async run(): Promise<void> {
    const { options } = this;
    const lanes = new Set<Promise<void>>();
    for (;;) {
      if (this.stopping) break;
      const now = options.clock();
      let nextDue = Number.POSITIVE_INFINITY;
      for (const id of this.waiting) {
        const item = options.store.outbox.get(id);
        if (item === undefined) this.waiting.delete(id);
        else if (item.nextAt <= now) {
          this.waiting.delete(id);
          this.ready.push(id);
        } else nextDue = Math.min(nextDue, item.nextAt);
      }
      while (this.inFlight.size < FORWARD_CONCURRENCY && this.ready.length > 0) {
        const id = this.ready.shift() as string;
        const item = options.store.outbox.get(id);
        if (item === undefined || this.inFlight.has(id)) continue;
        this.inFlight.add(id);
        const lane = this.attempt(item).finally(() => {
          this.inFlight.delete(id);
          lanes.delete(lane);
          this.kick();
        });
        lanes.add(lane);
      }
      if (this.isIdle()) for (const resolve of this.idleWaiters.splice(0)) resolve();
      if (this.wake.signal.aborted) this.wake = new AbortController();
      const full = this.inFlight.size >= FORWARD_CONCURRENCY || this.ready.length === 0;
      if (!full) continue;
      // Nothing to start: sleep until the next is due (or for a long while), or until kicked.
      const ms = Number.isFinite(nextDue) ? Math.max(0, nextDue - now) : 3_600_000;
      await options.sleep(ms, this.wake.signal);
    }
    await Promise.all(lanes);
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async attempt(item: OutboxItem): Promise<void> {
    const { options } = this;
    const { event } = item;
    const id = event.entry.event_id;
    const attempt = item.attempts + 1;
    const result = await options.forwarder.forward(
      { headers: event.headers, body: Buffer.from(event.bodyBase64, "base64") },
      attempt,
    );
    const now = options.clock();
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const acceptedAtMs = Date.parse(event.entry.at);
    const next = afterAttempt({
      ok,
      attempts: attempt,
      retryAfterMs: result.retryAfterMs,
      nowMs: now,
      acceptedAtMs: Number.isNaN(acceptedAtMs) ? now : acceptedAtMs,
      limits: options.limits,
    });
    const at = new Date(now).toISOString();
    const noteForwarded = (nextAt: number | null): void =>
      options.note({
        type: "forwarded",
        at: now,
        eventId: id,
        url: options.forwarder.url,
        attempt,
        result,
        nextAt,
      });
    switch (next.kind) {
      case "done":
        options.store.mark([{ t: "forwarded", event_id: id, attempt, at, status: result.status as number }]);
        options.store.outbox.delete(id);
        options.counts.forwarded += 1;
        noteForwarded(null);
        return;
      case "retry":
        item.attempts = attempt;
        item.nextAt = next.nextAt;
        item.lastStatus = result.status;
        item.lastError = result.error;
        options.store.mark([
          {
            t: "attempt",
            event_id: id,
            attempt,
            at,
            status: result.status,
            error: result.error,
            next_at: new Date(next.nextAt).toISOString(),
          },
        ]);
        this.waiting.add(id);
        options.counts.forwardFailed += 1;
        noteForwarded(next.nextAt);
        return;
      case "dead": {
        item.attempts = attempt;
        item.lastStatus = result.status;
        item.lastError = result.error;
        options.counts.forwardFailed += 1;
        noteForwarded(null);
        if (
          !this.deadLetter(item, next.reason, now, {
            event_id: id,
            event_type: event.entry.kind,
            accepted_at: event.entry.at,
            dead_at: at,
            reason: next.reason,
            attempts: attempt,
            last_status: result.status,
            last_error: result.error,
            forward_to: options.forwarder.url,
            headers: event.headers,
            body_base64: event.bodyBase64,
          })
        )
          return;
        options.counts.deadLettered += 1;
        const limit =
          next.reason === "attempts"
            ? `${attempt} attempts (--forward-max-attempts ${options.limits.maxAttempts})`
            : `its age limit (--forward-max-age, ${Math.round(options.limits.maxAgeMs / 1000)} s after it was taken on)`;
        options.note({
          type: "dead-lettered",
          at: now,
          eventId: id,
          kind: event.entry.kind,
          attempts: attempt,
          reason: next.reason,
          file: options.deadLetterFile,
          diagnostic: {
            severity: "error",
            code: "webhooks.dead-letter",
            message: `Event ${id} was not forwarded after ${limit}: moved to ${options.deadLetterFile}`,
            hint: "Replay it to the handler once it works: the file holds the exact headers and body",
          },
        });
        return;
      }
    }
  }

  /**
   * Moves `item` to the dead-letter file; false when that file could not be written (a disk full for
   * a while): reported, and the event stays in the outbox, tried again after the longest backoff,
   * so it reaches the handler or the file later (never the record's `dead` marker without its line).
   */
  private deadLetter(...args: Parameters<OutboxStore["deadLetter"]>): boolean {
    const { options } = this;
    const [item, , now] = args;
    try {
      options.store.deadLetter(...args);
      return true;
    } catch (error) {
      item.nextAt = now + options.limits.maxDelayMs;
      this.waiting.add(item.event.entry.event_id);
      options.note({
        type: "problem",
        at: now,
        diagnostic: {
          severity: "error",
          code: "webhooks.dead-letter-unwritten",
          message: `Event ${item.event.entry.event_id} could not be written to ${options.deadLetterFile}: ${error instanceof Error ? error.message : String(error)}`,
          hint: `It stays in the outbox and is tried again at ${new Date(item.nextAt).toISOString()}; free space or fix the --state directory`,
        },
      });
      return false;
    }
  }
}
