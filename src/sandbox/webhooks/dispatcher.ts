/**
 * Webhook delivery of the event outbox. After every change of the world it fans the new events out
 * (one `WebhookDeliveryRecord` per subscribed endpoint, see `subscriptions.ts`) and makes the first
 * attempt at once; failed attempts are retried on the virtual clock (`schedule.ts`) and a retry
 * timer waits for its request, so clock advances are deterministic. A 2xx answer within the timeout
 * is a success. Requests are real HTTP POSTs from the sandbox with the contract's headers and
 * signature. `idle()` resolves when no request is in flight.
 */
import { WEBHOOK_TIMEOUT_MS } from "../../contract/limits.js";
import type { VirtualClock } from "../clock.js";
import type { ObservedStore } from "../simulation/observed-store.js";
import type { EventRecord, WebhookDeliveryRecord, World } from "../state/world.js";
import { postJson } from "./post.js";
import { MAX_ATTEMPTS, retryDelay } from "./schedule.js";
import { signBody } from "./signature.js";
import { endpointsFor } from "./subscriptions.js";

export interface DispatcherDeps {
  readonly store: ObservedStore;
  readonly clock: VirtualClock;
  readonly onBug: (error: unknown) => void;
  /**
   * The clock of `X-Timestamp` (ms since the epoch): the virtual clock by default; this machine's
   * clock with `--webhook-clock wall`, so a receiver's 5-minute window accepts deliveries while the
   * virtual clock runs days ahead. The delivery log's `at` stays virtual either way.
   */
  readonly stampMs?: () => number;
}

export class WebhookDispatcher {
  /** Real milliseconds a receiver has to answer (the contract's 10 seconds). */
  timeoutMs = WEBHOOK_TIMEOUT_MS;
  private world: World | undefined;
  private epoch = 0;
  private readonly events = new Map<string, EventRecord>();
  private readonly inflight = new Set<Promise<void>>();
  private readonly timers = new Set<{ cancel(): void }>();
  private pumping = false;
  private stopped = false;

  constructor(private readonly deps: DispatcherDeps) {}

  /** Hears every change of the world (see `ObservedStore`). */
  onChange(): void {
    if (this.stopped) return;
    if (this.deps.store.world !== this.world) this.rebuild();
    this.pump();
  }

  /** Resolves when every request in flight has finished (retries due later are not waited for). */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) t.cancel();
    this.timers.clear();
  }

  private rebuild(): void {
    const w = this.deps.store.world;
    this.world = w;
    this.epoch += 1;
    for (const t of this.timers) t.cancel();
    this.timers.clear();
    this.events.clear();
    for (const e of w.events) this.events.set(e.id, e);
    for (const d of w.webhookDeliveries)
      if (d.state === "pending")
        this.retryAt(d, Date.parse(d.next_attempt_at ?? "") || this.deps.clock.nowMs());
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      const { store, clock } = this.deps;
      while (store.world.webhookCursor < store.world.events.length) {
        const created = store.mutate((w) => {
          const out: WebhookDeliveryRecord[] = [];
          const at = new Date(clock.nowMs()).toISOString();
          for (const event of w.events.slice(w.webhookCursor)) {
            this.events.set(event.id, event);
            for (const endpoint of endpointsFor(w, event)) {
              const d: WebhookDeliveryRecord = {
                delivery_id: `whd_${store.nextId(w).replaceAll("-", "")}`,
                event_id: event.id,
                event_kind: event.kind,
                endpoint_id: endpoint.id,
                url: endpoint.url,
                state: "pending",
                attempts: [],
                next_attempt_at: at,
              };
              w.webhookDeliveries.push(d);
              out.push(d);
            }
          }
          w.webhookCursor = w.events.length;
          return out;
        });
        for (const d of created) this.track(this.attempt(d, this.epoch));
      }
    } finally {
      this.pumping = false;
    }
  }

  private track(job: Promise<void>): Promise<void> {
    const guarded = job.catch(this.deps.onBug);
    this.inflight.add(guarded);
    void guarded.finally(() => this.inflight.delete(guarded));
    return guarded;
  }

  private retryAt(d: WebhookDeliveryRecord, atMs: number): void {
    const epoch = this.epoch;
    const timer = this.deps.clock.schedule(atMs, () => {
      this.timers.delete(timer);
      if (epoch !== this.epoch || this.stopped || d.state !== "pending") return;
      return this.track(this.attempt(d, epoch));
    });
    this.timers.add(timer);
  }

  private async attempt(d: WebhookDeliveryRecord, epoch: number): Promise<void> {
    const { store, clock } = this.deps;
    const nowMs = clock.nowMs();
    const n = d.attempts.length + 1;
    const event = this.events.get(d.event_id);
    const endpoint = store.world.webhookEndpoints[d.endpoint_id];
    let outcome: { status: number | null; error: string | null };
    if (event === undefined || endpoint === undefined)
      outcome = { status: null, error: event === undefined ? "event not found" : "endpoint removed" };
    else {
      const body = JSON.stringify(event.payload);
      outcome = await postJson(
        endpoint.url,
        body,
        {
          "content-type": "application/json",
          "x-webhook-signature": signBody(endpoint.secret, body),
          "x-event-type": event.kind,
          "x-event-id": event.id,
          "x-timestamp": String(Math.floor((this.deps.stampMs?.() ?? nowMs) / 1000)),
        },
        this.timeoutMs,
      );
    }
    if (epoch !== this.epoch || this.stopped) return;
    const success = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const delay = success ? null : retryDelay(n);
    store.mutate(() => {
      d.attempts.push({ attempt: n, at: new Date(nowMs).toISOString(), ...outcomeFields(outcome) });
      d.state = success ? "delivered" : delay === null || n >= MAX_ATTEMPTS ? "missed" : "pending";
      d.next_attempt_at =
        d.state === "pending" && delay !== null ? new Date(nowMs + delay).toISOString() : null;
    });
    if (d.state === "pending" && delay !== null) this.retryAt(d, nowMs + delay);
  }
}

function outcomeFields(o: { status: number | null; error: string | null }): {
  status_code: number | null;
  error: string | null;
} {
  return { status_code: o.status, error: o.error };
}
