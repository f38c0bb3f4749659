/**
 * The results store's port: the one interface `results record` writes through and `results` reads
 * through, whatever holds the snapshots (files in the repository, cli/adapters/results-files.ts;
 * a PostgreSQL database, cli/adapters/results-postgres.ts). The rule of what is written is pure
 * (write-rule.ts); each store applies it inside its own atomic step (a file's batch, a transaction).
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ResultsSnapshot } from "./snapshot.js";

/** What one recording wrote. Invariant: `written + sameHour + unchanged` = the snapshots handed in. */
export interface WriteCounts {
  /** Snapshots appended. */
  readonly written: number;
  /** Dropped: the project already has a snapshot of that hour (the snapshot's identity). */
  readonly sameHour: number;
  /** Dropped: the same figures as the project's previous snapshot. */
  readonly unchanged: number;
  /** Where the snapshots went, for the summary: file paths, or the table's name. */
  readonly places: readonly string[];
}

export type WriteOutcome =
  | ({ readonly ok: true; readonly diagnostics: readonly Diagnostic[] } & WriteCounts)
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** What a reading found: every snapshot taken before `untilMs`, by project then time. */
export type ReadOutcome =
  | {
      readonly ok: true;
      readonly snapshots: readonly ResultsSnapshot[];
      readonly diagnostics: readonly Diagnostic[];
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** A results store. Invariant: a snapshot's identity (project, hour) is never stored twice. */
export interface ResultsStore {
  /** The store as messages name it (a directory, or "PostgreSQL (<variable>)"); never a secret. */
  readonly name: string;
  /** Writes the snapshots the write rule keeps, atomically per batch; never throws on IO problems. */
  write(snapshots: readonly ResultsSnapshot[]): Promise<WriteOutcome>;
  /** Every snapshot whose `at` is before `untilMs`. */
  read(untilMs: number): Promise<ReadOutcome>;
  close(): Promise<void>;
}
