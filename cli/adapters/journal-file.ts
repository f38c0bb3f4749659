/**
 * The run's journal: one JSON-lines file per apply under `.campaignctl/journal/` (relative to the
 * working directory), named by the run's UTC start time and the process id, written synchronously
 * line by line (each event is on disk, in the OS's hands, before the next request starts), so a
 * killed run leaves every attempt, response code, replay header, resolution and outcome behind.
 * Events never carry the API key; as a second guard every line goes through the run's one output
 * redaction (cli/output/output-redaction.ts: every secret of the run, any run of 8 or more of its
 * characters in any case, and any key-shaped text), as every other output does.
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join, relative } from "node:path";
import type { ApplyEvent } from "../../src/apply/index.js";
import type { Redactor } from "../../src/text/redact.js";

export const JOURNAL_DIR = ".campaignctl/journal";

/** An open journal. `write` never throws: a write failure is counted and reported at the end. */
export interface Journal {
  /** Path relative to the working directory, as printed and stored in the result. */
  readonly path: string;
  write(event: ApplyEvent | Record<string, unknown>): void;
  /** Lines that could not be written. */
  failures(): number;
  close(): void;
}

export type JournalOpen =
  | { readonly ok: true; readonly journal: Journal }
  | { readonly ok: false; readonly message: string };

/** `20261201T150000.123Z`: sortable, portable as a file name. */
export function journalStamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, "");
}

export function openJournal(cwd: string, at: Date, pid: number, redactLine: Redactor): JournalOpen {
  const dir = join(cwd, JOURNAL_DIR);
  const file = join(dir, `apply-${journalStamp(at)}-${pid}.jsonl`);
  let fd: number;
  try {
    mkdirSync(dir, { recursive: true });
    fd = openSync(file, "a", 0o600);
  } catch (error) {
    return {
      ok: false,
      message: `cannot write ${relative(cwd, file)}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  let failed = 0;
  let open = true;
  return {
    ok: true,
    journal: {
      path: relative(cwd, file),
      write: (event) => {
        if (!open) return;
        const line = redactLine(`${JSON.stringify(event)}\n`);
        try {
          writeSync(fd, line);
        } catch {
          failed++;
        }
      },
      failures: () => failed,
      close: () => {
        if (!open) return;
        open = false;
        try {
          closeSync(fd);
        } catch {
          failed++;
        }
      },
    },
  };
}
