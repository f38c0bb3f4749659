/**
 * The dedupe record: which events the listener has taken on, by event id (X-Event-ID, the same on
 * every retry of a delivery) and by body key (from the signed body, see body-key.ts, the same for a
 * replay under a fresh event id). Bounded: it keeps the newest `capacity` events and forgets the
 * oldest first. Pure; kept on disk as part of the record (record.ts, record-store.ts) and rebuilt
 * from it on start, so a restart does not handle an event twice.
 */

/** How many events the record remembers unless told otherwise. */
export const DEDUPE_CAPACITY = 50_000;

/**
 * One remembered event, one JSON line on disk. Invariant: `event_id` and `body_key` are unique in a
 * record; `at` is the listener's clock when it took the event on (ISO 8601).
 */
export interface DedupeEntry {
  readonly event_id: string;
  readonly body_key: string;
  readonly kind: string;
  readonly at: string;
}

/** What a delivery is, as far as the record knows: new, a retry of a known event id, or a replayed body. */
export type Seen =
  | { readonly kind: "new" }
  | { readonly kind: "duplicate-event"; readonly first: DedupeEntry }
  | { readonly kind: "replayed-body"; readonly first: DedupeEntry };

/** The answer for an event not seen (one object: asked once a delivery). */
const NEW: Seen = { kind: "new" };

export class DedupeRecord {
  private readonly byEvent = new Map<string, DedupeEntry>();
  private readonly byBody = new Map<string, DedupeEntry>();

  /** Invariant: `size <= capacity`; the newest entries win. */
  constructor(
    readonly capacity: number = DEDUPE_CAPACITY,
    entries: Iterable<DedupeEntry> = [],
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError("capacity must be a positive integer");
    for (const entry of entries) this.add(entry);
  }

  get size(): number {
    return this.byEvent.size;
  }

  /** The event id is checked first: a retry keeps its id, a replay under a new id keeps its body. */
  seen(eventId: string, bodyKey: string): Seen {
    const byEvent = this.byEvent.get(eventId);
    if (byEvent !== undefined) return { kind: "duplicate-event", first: byEvent };
    const byBody = this.byBody.get(bodyKey);
    if (byBody !== undefined) return { kind: "replayed-body", first: byBody };
    return NEW;
  }

  /** Remembers `entry` (an entry with a known id or body key replaces the older one), forgetting the oldest beyond capacity. */
  add(entry: DedupeEntry): void {
    this.forget(this.byEvent.get(entry.event_id));
    this.forget(this.byBody.get(entry.body_key));
    this.addNew(entry);
  }

  /**
   * {@link add} for an entry whose event id and body key {@link seen} has just found `new` (the
   * listener's every accepted event, issue 36): neither is looked up again. Precondition: both unknown.
   */
  addNew(entry: DedupeEntry): void {
    this.byEvent.set(entry.event_id, entry);
    this.byBody.set(entry.body_key, entry);
    while (this.byEvent.size > this.capacity) {
      const oldest = this.byEvent.values().next().value;
      if (oldest === undefined) break;
      this.forget(oldest);
    }
  }

  /** Forgets the event `eventId` (its write failed: it was never taken on). */
  remove(eventId: string): void {
    this.forget(this.byEvent.get(eventId));
  }

  /** The remembered entries, oldest first. */
  entries(): DedupeEntry[] {
    return [...this.byEvent.values()];
  }

  private forget(entry: DedupeEntry | undefined): void {
    if (entry === undefined) return;
    this.byEvent.delete(entry.event_id);
    this.byBody.delete(entry.body_key);
  }
}
