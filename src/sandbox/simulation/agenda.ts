/**
 * The simulation's agenda: work items ordered by virtual due time, then by insertion (a binary
 * min-heap). Items only trigger work: each handler re-checks the world, so a stale item (after a
 * pause, a reset or a duplicate push) changes nothing.
 */

/** One thing the simulation must do at `at` (virtual ms). */
export type WorkItem =
  | { readonly kind: "activate"; readonly at: number; readonly projectId: string }
  | { readonly kind: "batch"; readonly at: number; readonly projectId: string }
  | { readonly kind: "receipt"; readonly at: number; readonly messageId: string }
  | { readonly kind: "reply"; readonly at: number; readonly messageId: string }
  | { readonly kind: "click"; readonly at: number; readonly messageId: string };

interface Entry {
  readonly item: WorkItem;
  readonly seq: number;
}

export class Agenda {
  private heap: Entry[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  clear(): void {
    this.heap = [];
  }

  push(item: WorkItem): void {
    this.heap.push({ item, seq: this.seq++ });
    let i = this.heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  peekAt(): number | undefined {
    return this.heap[0]?.item.at;
  }

  /** Removes and returns the earliest item due at or before `nowMs`. */
  popDue(nowMs: number): WorkItem | undefined {
    const top = this.heap[0];
    if (top === undefined || top.item.at > nowMs) return undefined;
    const last = this.heap.pop();
    if (last !== undefined && this.heap.length > 0) {
      this.heap[0] = last;
      this.sink(0);
    }
    return top.item;
  }

  private sink(start: number): void {
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.heap.length && this.less(l, m)) m = l;
      if (r < this.heap.length && this.less(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private less(a: number, b: number): boolean {
    const x = this.heap[a];
    const y = this.heap[b];
    if (x === undefined || y === undefined) return false;
    return x.item.at < y.item.at || (x.item.at === y.item.at && x.seq < y.seq);
  }

  private swap(a: number, b: number): void {
    const x = this.heap[a];
    const y = this.heap[b];
    if (x === undefined || y === undefined) return;
    this.heap[a] = y;
    this.heap[b] = x;
  }
}
