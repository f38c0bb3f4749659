/**
 * What email knows of one list, as plain data: its CSV checked to its end (ListCheck, made by
 * list-tally.ts) and its sync by apply (ListSyncResult, made by sync.ts). The plan's list items
 * (src/plan/items.ts) carry these with a verdict; email knows no plan. Field names are the JSON
 * names (schemas/email.schema.json, schemas/plan.schema.json).
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";

/**
 * One list's CSV as read to its end: rows, rows to send, rows refused (by code), the batches the
 * rows make, and the first refusals in full. Invariants: `rows = to_send + refused`;
 * `batches = ceil(to_send / 1000)`; `diagnostics` holds every file problem and the first refusals;
 * `more` counts refusal diagnostics not shown.
 */
export interface ListCheck {
  readonly address: string;
  readonly list_id: string;
  readonly csv: string;
  /** The CSV could be read to its end (no file or header problem). */
  readonly readable: boolean;
  readonly rows: number;
  readonly to_send: number;
  readonly refused: number;
  readonly batches: number;
  readonly refused_by_code: Readonly<Record<string, number>>;
  readonly diagnostics: readonly Diagnostic[];
  readonly more: number;
}

/**
 * How a batch of a list's sync ended. `unknown`: no answer said (a timeout or a 5xx on each send),
 * so it may have been written; a re-run sends it again with the same key.
 */
export type BatchOutcome = "written" | "replayed" | "early-access" | "failed" | "unknown";

export interface BatchResult {
  readonly index: number;
  readonly rows: number;
  readonly idempotency_key: string;
  readonly outcome: BatchOutcome;
  readonly sends: number;
}

/** How a list's sync ended. `skipped`: early access; `failed`: a file problem or a failed batch. */
export type ListSyncState = "synced" | "skipped" | "failed";

/** One list's sync by apply. Invariant: the row counts add up to the rows of the CSV read. */
export interface ListSyncResult {
  readonly address: string;
  readonly list_id: string;
  readonly state: ListSyncState;
  readonly rows: number;
  readonly accepted: number;
  readonly rejected: number;
  readonly duplicates: number;
  readonly refused: number;
  readonly skipped: number;
  readonly not_sent: number;
  /** Rows of a batch whose outcome is unknown (it may have been written). */
  readonly unknown: number;
  readonly batches: readonly BatchResult[];
  readonly diagnostics: readonly Diagnostic[];
}
