/**
 * The request log of `/v1` traffic (`GET /_sandbox/requests`): what was asked, by which key id
 * and that key's organization (never the key itself), and what was answered. Keeps the newest
 * `capacity` entries in a ring (a request costs the same however many came before); the counts
 * cover every request since the last clear.
 */

export interface RequestLogEntry {
  readonly seq: number;
  readonly method: string;
  /** Route template (`/projects/{id}`), or null for an unknown route. */
  readonly route: string | null;
  readonly path: string;
  readonly key_id: string | null;
  /** The organization of that key: whose key the request was made with (null without a key). */
  readonly key_organization_id: string | null;
  readonly status: number;
  readonly replayed: boolean;
  readonly fault: string | null;
  readonly idempotency_key: string | null;
  readonly at: string;
}

/** What a request adds: the entry but its number, its time as the virtual clock's milliseconds. */
export type RequestLogInput = Omit<RequestLogEntry, "seq" | "at"> & { readonly atMs: number };

/** An entry as kept: formatted (`at` as ISO 8601) only when the log is read. */
type Kept = RequestLogInput & { readonly seq: number };

export class RequestLog {
  /** A ring: the newest `capacity` entries, the oldest at `start`. */
  private ring: Kept[] = [];
  private start = 0;
  private seq = 0;
  private perRoute = new Map<string, number>();
  private perKey = new Map<string, number>();

  constructor(private readonly capacity = 20_000) {}

  /** O(1): overwrites the oldest entry once the log holds `capacity`. */
  add(entry: RequestLogInput): void {
    this.seq += 1;
    const stored: Kept = { ...entry, seq: this.seq };
    if (this.ring.length < this.capacity) this.ring.push(stored);
    else {
      this.ring[this.start] = stored;
      this.start = (this.start + 1) % this.capacity;
    }
    const route = `${entry.method} ${entry.route ?? "(unknown)"}`;
    this.perRoute.set(route, (this.perRoute.get(route) ?? 0) + 1);
    const key = entry.key_id ?? "(none)";
    this.perKey.set(key, (this.perKey.get(key) ?? 0) + 1);
  }

  snapshot(): {
    total: number;
    counts: { per_route: Record<string, number>; per_key: Record<string, number> };
    requests: RequestLogEntry[];
  } {
    return {
      total: [...this.perRoute.values()].reduce((a, b) => a + b, 0),
      counts: { per_route: Object.fromEntries(this.perRoute), per_key: Object.fromEntries(this.perKey) },
      requests: [...this.ring.slice(this.start), ...this.ring.slice(0, this.start)].map(entryOf),
    };
  }

  clear(): void {
    this.ring = [];
    this.start = 0;
    this.perRoute.clear();
    this.perKey.clear();
  }
}

function entryOf(kept: Kept): RequestLogEntry {
  return {
    seq: kept.seq,
    method: kept.method,
    route: kept.route,
    path: kept.path,
    key_id: kept.key_id,
    key_organization_id: kept.key_organization_id,
    status: kept.status,
    replayed: kept.replayed,
    fault: kept.fault,
    idempotency_key: kept.idempotency_key,
    at: new Date(kept.atMs).toISOString(),
  };
}
