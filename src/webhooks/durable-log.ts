/**
 * The durable-log port (design principle 12, "a receiver acknowledges only what is on disk"; issue
 * 33): the one way the listener's record (record-store.ts) and the replies record
 * (src/replies/state-file.ts) write. Appending is not yet durable; a sync makes every byte appended
 * before it durable, so an acknowledgement waits for the sync that covers its bytes (group commit:
 * one sync may cover many appends). Two ways to sync, one meaning: `sync` blocks the thread (rare
 * paths: a torn line cut on open, a dead letter, the replies worker's one line at a time);
 * `syncAsync` runs on another thread and lets the event loop read more deliveries meanwhile (the
 * listener's hot path, issue 36). Pure code holds only this interface: the file-backed
 * implementation is at the edge (cli/adapters/durable-file.ts), and tests hand in one that records
 * the order of operations (test/support/memory-log.ts).
 */

/**
 * One append-only log. Invariants: after `sync` returns, every byte appended before it survives a
 * crash; `replace` is atomic and durable when it returns (a crash leaves the old content or the
 * new); every method throws on an IO failure, having acknowledged nothing.
 */
export interface DurableLog {
  /** Appends `text` at the end (not yet durable). */
  append(text: string): void;
  /** Makes every byte appended so far durable (fdatasync), blocking the thread until it is. */
  sync(): void;
  /**
   * Makes every byte appended before the call durable without blocking the thread (fdatasync on
   * another thread): resolves once it is, rejects on an IO failure. Until it settles, `replace`
   * must not be called (a bug: it would swap the file under the sync), and `close` closes only once
   * it settled. Bytes appended meanwhile may or may not be covered: only a later sync says they are.
   */
  syncAsync(): Promise<void>;
  /** Cuts the log to its first `length` bytes (a torn last line); durable after the next `sync`. */
  truncate(length: number): void;
  /** Replaces the whole content with `text`, atomically and durably (a compaction, a cursor). */
  replace(text: string): void;
  close(): void;
}

/**
 * A directory of logs by name (`dedupe.jsonl`, `answered.jsonl`...). `read` gives the bytes a log
 * holds now (empty when there is none); `open` opens it for appending, creating it.
 */
export interface LogDirectory {
  read(name: string): Buffer;
  open(name: string): DurableLog;
}

/**
 * The whole lines of a log's bytes: up to and with the last newline. `torn` is the length of what
 * follows (a last line cut short by a crash), which the opener truncates before appending.
 */
export function wholeLines(bytes: Buffer): {
  readonly text: string;
  readonly wholeBytes: number;
  readonly torn: number;
} {
  const wholeBytes = bytes.lastIndexOf(0x0a) + 1;
  return {
    text: bytes.subarray(0, wholeBytes).toString("utf8"),
    wholeBytes,
    torn: bytes.length - wholeBytes,
  };
}
