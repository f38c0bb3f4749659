/**
 * Finds repeated addresses in a stream of rows in bounded memory per row: a hash table of 64-bit
 * hashes of the lower-cased address and the line that first held it (12 bytes a distinct address,
 * in typed arrays, not a JavaScript object per row). Two different addresses share a 64-bit hash
 * with odds of about n²/2^65 (1 in 36 million for a million rows); the report then names a line
 * whose address differs, which the reader sees at once. Pure.
 */

/** FNV-1a over UTF-16 code units with two different offsets: two independent 32-bit halves. */
function hashes(text: string): readonly [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return [a >>> 0, b >>> 0];
}

export class DuplicateIndex {
  private hi = new Uint32Array(1024);
  private lo = new Uint32Array(1024);
  /** 0: empty slot (lines start at 1). */
  private lines = new Uint32Array(1024);
  private count = 0;

  /** The line that first held `address` (case-insensitive), or undefined (and `line` is recorded). */
  firstLine(address: string, line: number): number | undefined {
    const [h, l] = hashes(address.toLowerCase());
    const found = this.probe(h, l);
    if (found.line !== 0) return found.line;
    if ((this.count + 1) * 2 > this.lines.length) {
      this.grow();
      return this.insert(h, l, line);
    }
    this.hi[found.slot] = h;
    this.lo[found.slot] = l;
    this.lines[found.slot] = Math.max(1, line);
    this.count++;
    return undefined;
  }

  /** Distinct addresses recorded. */
  get size(): number {
    return this.count;
  }

  private insert(h: number, l: number, line: number): undefined {
    const found = this.probe(h, l);
    this.hi[found.slot] = h;
    this.lo[found.slot] = l;
    this.lines[found.slot] = Math.max(1, line);
    this.count++;
    return undefined;
  }

  private probe(h: number, l: number): { slot: number; line: number } {
    const mask = this.lines.length - 1;
    for (let slot = (h ^ l) & mask; ; slot = (slot + 1) & mask) {
      const line = this.lines[slot] ?? 0;
      if (line === 0) return { slot, line: 0 };
      if (this.hi[slot] === h && this.lo[slot] === l) return { slot, line };
    }
  }

  private grow(): void {
    const { hi, lo, lines } = this;
    const size = lines.length * 2;
    this.hi = new Uint32Array(size);
    this.lo = new Uint32Array(size);
    this.lines = new Uint32Array(size);
    this.count = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? 0;
      if (line !== 0) this.insert(hi[i] ?? 0, lo[i] ?? 0, line);
    }
  }
}
