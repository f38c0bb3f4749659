/**
 * The dedupe record: which events the listener has taken on, by event id (X-Event-ID, the same on
 * every retry of a delivery) and by body key (from the signed body, see body-key.ts, the same for a
 * replay under a fresh event id). Bounded: it keeps the newest `capacity` events and forgets the
 * oldest first. Pure; the CLI keeps it on disk as JSON lines (one {@link DedupeEntry} a line,
 * appended as events are taken on) and loads it on start, so a restart does not handle an event twice.
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
    return { kind: "new" };
  }

  /** Remembers `entry` (an entry with a known id or body key replaces the older one), forgetting the oldest beyond capacity. */
  add(entry: DedupeEntry): void {
    this.forget(this.byEvent.get(entry.event_id));
    this.forget(this.byBody.get(entry.body_key));
    this.byEvent.set(entry.event_id, entry);
    this.byBody.set(entry.body_key, entry);
    while (this.byEvent.size > this.capacity) {
      const oldest = this.byEvent.values().next().value;
      if (oldest === undefined) break;
      this.forget(oldest);
    }
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

/** One entry as a line of the record file (with its newline). */
export function dedupeLine(entry: DedupeEntry): string {
  return `${JSON.stringify({ event_id: entry.event_id, body_key: entry.body_key, kind: entry.kind, at: entry.at })}\n`;
}

/**
 * The entries of a record file, oldest first, and how many lines were not entries. A line that is
 * not an entry (a write cut short by a crash, an edit by hand) is skipped, not fatal: the rest of
 * the record still protects against duplicates.
 */
export function parseDedupeLines(text: string): { entries: DedupeEntry[]; skipped: number } {
  const entries: DedupeEntry[] = [];
  let skipped = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const entry = entryOf(line);
    if (entry === undefined) skipped += 1;
    else entries.push(entry);
  }
  return { entries, skipped };
}

function entryOf(line: string): DedupeEntry | undefined {
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    const { event_id, body_key, kind, at } = value;
    if (
      typeof event_id === "string" &&
      event_id !== "" &&
      typeof body_key === "string" &&
      body_key !== "" &&
      typeof kind === "string" &&
      typeof at === "string"
    )
      return { event_id, body_key, kind, at };
  } catch {
    // not JSON: skipped
  }
  return undefined;
}
