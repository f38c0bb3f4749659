/**
 * The durable-log port (src/webhooks/durable-log.ts) in memory, for the tests of "acknowledge only
 * what is durable": each log keeps what was written and, apart, what a sync made durable; every
 * operation is recorded in one list, in order (a test adds its own acknowledgements to it), and
 * `crash()` drops what was written but never synced, as a power cut would. `syncAsync` settles a
 * turn of the event loop later (as an fdatasync on libuv's thread pool does), covering only what was
 * written before the call; its `sync` is recorded when it settles.
 */
import type { DurableLog, LogDirectory } from "../../src/webhooks/durable-log.js";

/** One operation on a log, or a mark the test adds (`ack`: something was acknowledged). */
export type LogOp =
  /** `end`: the log's length in bytes right after this append. */
  | { readonly op: "append"; readonly log: string; readonly text: string; readonly end: number }
  | { readonly op: "close"; readonly log: string }
  /** `length`: the bytes of the log a crash keeps from now on (what was written before the sync began). */
  | { readonly op: "sync"; readonly log: string; readonly length: number }
  | { readonly op: "truncate"; readonly log: string; readonly length: number }
  | { readonly op: "replace"; readonly log: string; readonly text: string }
  | { readonly op: "ack"; readonly what: string };

interface Content {
  written: Buffer;
  durable: Buffer;
}

export class MemoryLogs implements LogDirectory {
  readonly ops: LogOp[] = [];
  private readonly files = new Map<string, Content>();

  /** What a reader finds now (before a crash: what was written, as the page cache shows it). */
  read(name: string): Buffer {
    return Buffer.from(this.files.get(name)?.written ?? Buffer.alloc(0));
  }

  open(name: string): DurableLog {
    const content = this.content(name);
    const ops = this.ops;
    return {
      append(text) {
        content.written = Buffer.concat([content.written, Buffer.from(text)]);
        ops.push({ op: "append", log: name, text, end: content.written.length });
      },
      sync() {
        ops.push({ op: "sync", log: name, length: content.written.length });
        content.durable = Buffer.from(content.written);
      },
      syncAsync() {
        const covered = Buffer.from(content.written);
        return new Promise<void>((resolve) =>
          setImmediate(() => {
            ops.push({ op: "sync", log: name, length: covered.length });
            content.durable = covered;
            resolve();
          }),
        );
      },
      truncate(length) {
        ops.push({ op: "truncate", log: name, length });
        content.written = content.written.subarray(0, length);
      },
      replace(text) {
        ops.push({ op: "replace", log: name, text });
        content.written = Buffer.from(text);
        content.durable = Buffer.from(text);
      },
      close() {
        ops.push({ op: "close", log: name });
      },
    };
  }

  /** What would survive a crash now. */
  durable(name: string): string {
    return (this.files.get(name)?.durable ?? Buffer.alloc(0)).toString("utf8");
  }

  /** Sets a log's content as if a crash had left it (durable and written alike). */
  put(name: string, text: string): void {
    this.files.set(name, { written: Buffer.from(text), durable: Buffer.from(text) });
  }

  /** A power cut: every log keeps only what was synced. */
  crash(): void {
    for (const content of this.files.values()) content.written = Buffer.from(content.durable);
  }

  /** The test's mark that `what` was acknowledged, in order with the operations. */
  ack(what: string): void {
    this.ops.push({ op: "ack", what });
  }

  private content(name: string): Content {
    let content = this.files.get(name);
    if (content === undefined) {
      content = { written: Buffer.alloc(0), durable: Buffer.alloc(0) };
      this.files.set(name, content);
    }
    return content;
  }
}

/**
 * The acknowledgements in `ops` that came before a sync covered them: `covers(what, text)` says
 * whether appended `text` holds what `what` acknowledges. Empty when every acknowledgement waited.
 * An append is covered by a later sync of its log whose `length` reaches its end.
 */
export function acknowledgedBeforeSync(
  ops: readonly LogOp[],
  covers: (what: string, text: string) => boolean,
): string[] {
  const early: string[] = [];
  const pending = new Map<string, { text: string; end: number }[]>();
  const synced = new Set<string>();
  for (const o of ops) {
    switch (o.op) {
      case "append":
        pending.set(o.log, [...(pending.get(o.log) ?? []), { text: o.text, end: o.end }]);
        break;
      case "sync": {
        const waiting = pending.get(o.log) ?? [];
        for (const a of waiting) if (a.end <= o.length) synced.add(a.text);
        pending.set(
          o.log,
          waiting.filter((a) => a.end > o.length),
        );
        break;
      }
      case "replace":
        pending.delete(o.log);
        synced.add(o.text);
        break;
      case "truncate":
      case "close":
        break;
      case "ack":
        if (![...synced].some((text) => covers(o.what, text))) early.push(o.what);
        break;
    }
  }
  return early;
}
