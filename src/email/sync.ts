/**
 * Syncs one email list: judged rows in, batches of at most 1,000 out through the one write executor
 * (src/api/write-executor.ts), each with the key of its list and content (batch-key.ts), and one
 * result per row back to the caller (the per-row result file). Rows refused by the checks are never
 * sent; rows the API rejects are reported with their CSV line and never sent again. A 403
 * EMAIL_EARLY_ACCESS on the first batch skips the list (a state, not a failure); on a later one the
 * list is partly written, and failed like any other failed batch, which stops the list
 * (its later rows are `not-sent`; a re-run replays what was written and goes on). A 404 is a list id
 * the API does not know (`email.list-not-found` at the file's `id:`: the contract has no read of
 * email lists, so the first batch is where a wrong id shows); it stops that list only. IO only
 * through the injected `upsert` and `sleep`.
 */

import { apiErrorDiagnostic } from "../api/diagnostics.js";
import type { ApiResult } from "../api/result.js";
import { executeWrite, type WriteExecutorOptions, type WriteOutcome } from "../api/write-executor.js";
import { BULK_UPSERT_MAX } from "../contract/limits.js";
import type { EmailContactInput } from "../contract/requests.js";
import type { BulkUpsertResult } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { batchKey } from "./batch-key.js";
import { isEarlyAccess } from "./early-access.js";
import type { BatchOutcome, BatchResult, ListSyncResult, ListSyncState } from "./list-results.js";
import type { EmailListSpec } from "./model.js";
import type { RowVerdict } from "./row-check.js";
import { rowResults, rowVerdict, unstatedDiagnostic } from "./upsert-answer.js";

/** What became of one CSV row. */
export type RowStatus =
  | "accepted"
  | "rejected"
  | "duplicate"
  | "refused"
  | "skipped"
  | "not-sent"
  | "unknown";

/**
 * One line of the per-row result file (`schemas/email-row-result.schema.json`). `refused`: judged
 * before any request (reason: the diagnostics' codes and messages); `rejected`/`duplicate`: the
 * API's verdict and reason; `skipped`: early access; `not-sent`: an earlier batch failed (or the
 * CSV changed); `unknown`: its batch got no answer that says whether it was written (it may have
 * been: a re-run sends the batch again with the same key, which the API replays if it was).
 */
export interface RowResult {
  readonly list: string;
  readonly line: number;
  readonly email: string;
  readonly status: RowStatus;
  readonly reason: string | null;
  readonly batch: number | null;
}

export interface SyncPorts {
  readonly upsert: (
    listId: string,
    contacts: readonly EmailContactInput[],
    key: string,
  ) => Promise<ApiResult<BulkUpsertResult>>;
  readonly executor: WriteExecutorOptions;
  /** Each row's result, in the order rows are settled; the caller writes them to disk. */
  readonly onRow: (row: RowResult) => void;
  /**
   * Before each batch is sent: why the rows read may no longer be the ones the plan read (the CSV
   * changed since its digest was checked), or null to send. A reason stops the list there: that
   * batch and the later rows are `not-sent`.
   */
  readonly beforeBatch?: () => Diagnostic | null;
}

interface Pending {
  readonly line: number;
  readonly contact: EmailContactInput;
}

/** Rejected rows reported in full in the result; the rest are in the per-row file only. */
const SHOWN_REJECTED = 50;

export async function syncList(
  list: EmailListSpec,
  rows: AsyncIterable<RowVerdict>,
  ports: SyncPorts,
): Promise<ListSyncResult> {
  const counts = {
    rows: 0,
    accepted: 0,
    rejected: 0,
    duplicates: 0,
    refused: 0,
    skipped: 0,
    not_sent: 0,
    unknown: 0,
  };
  const batches: BatchResult[] = [];
  const diagnostics: Diagnostic[] = [];
  let state: ListSyncState = "synced";
  let pending: Pending[] = [];
  const settle = (row: Omit<RowResult, "list">): void => {
    ports.onRow({ list: list.address, ...row });
  };
  const flush = async (): Promise<void> => {
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    if (state !== "synced") {
      for (const p of batch) {
        const status = state === "skipped" ? "skipped" : "not-sent";
        if (status === "skipped") counts.skipped++;
        else counts.not_sent++;
        settle({
          line: p.line,
          email: p.contact.email,
          status,
          reason: state === "skipped" ? EARLY : null,
          batch: null,
        });
      }
      return;
    }
    const stale = ports.beforeBatch?.() ?? null;
    if (stale !== null) {
      state = "failed";
      diagnostics.push(stale);
      for (const p of batch) {
        counts.not_sent++;
        settle({ line: p.line, email: p.contact.email, status: "not-sent", reason: null, batch: null });
      }
      return;
    }
    const index = batches.length + 1;
    const contacts = batch.map((p) => p.contact);
    const key = batchKey(list.id, contacts);
    const outcome = await executeWrite<BulkUpsertResult, null>(
      {
        send: () => ports.upsert(list.id, contacts, key),
        // Ctrl-C: no new batch starts (a batch in flight finishes).
        before: () => (ports.executor.signal.aborted ? "interrupted (Ctrl-C): no new batch starts" : null),
        // Email lists cannot be read back (the contract shows no read): a batch whose answer was
        // lost is sent again with the same key, which the API replays (an upsert replayed is harmless).
        reread: async () => ({
          verdict: "not-happened",
          text: "email lists cannot be read back; the batch is sent again with the same key",
          value: null,
        }),
      },
      ports.executor,
    );
    const ended = batchOutcome(outcome);
    batches.push({ index, rows: batch.length, idempotency_key: key, outcome: ended, sends: outcome.sends });
    if (outcome.kind === "accepted") {
      const byIndex = rowResults(outcome.value);
      const unstated: number[] = [];
      batch.forEach((p, i) => {
        const { status, reason } = rowVerdict(byIndex.get(i));
        if (status === "accepted") counts.accepted++;
        else if (status === "duplicate") counts.duplicates++;
        else if (status === "unknown") {
          counts.unknown++;
          unstated.push(p.line);
        } else {
          counts.rejected++;
          if (counts.rejected <= SHOWN_REJECTED)
            diagnostics.push({
              severity: "error",
              code: "email.row-rejected",
              message: `${list.csvPath} line ${p.line}: the API rejected ${p.contact.email}: ${reason ?? "no reason given"}`,
              hint: "fix the row in the CSV; rejected rows are not sent again until they change",
            });
        }
        settle({ line: p.line, email: p.contact.email, status, reason, batch: index });
      });
      if (unstated.length > 0) diagnostics.push(unstatedDiagnostic(list, index, unstated));
      return;
    }
    // Early access skips a list only when nothing of it was written: after a written batch (every
    // earlier batch was, or the list would have stopped there) the list is partly written, failed.
    state = ended === "early-access" && index === 1 ? "skipped" : "failed";
    diagnostics.push(batchDiagnostic(list, index, batch, outcome));
    // A batch whose outcome is unknown may have been written: its rows say so, never `not-sent`.
    const status: RowStatus = state === "skipped" ? "skipped" : ended === "unknown" ? "unknown" : "not-sent";
    for (const p of batch) {
      if (status === "skipped") counts.skipped++;
      else if (status === "unknown") counts.unknown++;
      else counts.not_sent++;
      settle({
        line: p.line,
        email: p.contact.email,
        status,
        reason: ended === "early-access" ? EARLY : status === "unknown" ? UNKNOWN : null,
        batch: index,
      });
    }
  };
  for await (const verdict of rows) {
    counts.rows++;
    if (verdict.kind === "refuse") {
      counts.refused++;
      settle({
        line: verdict.line,
        email: verdict.email,
        status: "refused",
        reason: verdict.diagnostics.map((d) => `${d.code}: ${d.message}`).join("; "),
        batch: null,
      });
      continue;
    }
    pending.push({ line: verdict.line, contact: verdict.contact });
    if (pending.length >= BULK_UPSERT_MAX) await flush();
  }
  await flush();
  if (counts.rejected > SHOWN_REJECTED)
    diagnostics.push({
      severity: "info",
      code: "email.row-rejected",
      message: `${counts.rejected - SHOWN_REJECTED} more rows of ${list.csvPath} were rejected by the API; every row is in the per-row result file`,
    });
  return { address: list.address, list_id: list.id, state, ...counts, batches, diagnostics };
}

const EARLY = "EMAIL_EARLY_ACCESS: email is not yet available to the organization";

const UNKNOWN =
  "no answer said whether the batch was written (a timeout or a 5xx on each send): it may have been; run apply again, the same key replays it if it was";

/** A write whose sends left open whether it took effect (no answer, or a 5xx, and no later one that said). */
function uncertain(outcome: WriteOutcome<BulkUpsertResult, null>): boolean {
  return outcome.kind === "unknown" || (outcome.kind === "stopped" && outcome.uncertain);
}

function batchOutcome(outcome: WriteOutcome<BulkUpsertResult, null>): BatchOutcome {
  // A replay of this run's own earlier send (whose answer was lost) is this run's write.
  if (outcome.kind === "accepted") return outcome.replayed && !outcome.ours ? "replayed" : "written";
  if (outcome.kind === "refused" && isEarlyAccess(outcome.error)) return "early-access";
  return uncertain(outcome) ? "unknown" : "failed";
}

function batchDiagnostic(
  list: EmailListSpec,
  index: number,
  batch: readonly Pending[],
  outcome: WriteOutcome<BulkUpsertResult, null>,
): Diagnostic {
  if (outcome.kind === "refused" && outcome.error.kind === "http" && outcome.error.status === 404) {
    const lines = `lines ${batch[0]?.line ?? "?"}-${batch.at(-1)?.line ?? "?"} of ${list.csvPath}`;
    return {
      severity: "error",
      code: "email.list-not-found",
      message: `email list ${list.address}: the API knows no email list ${list.id} (404 ${outcome.error.code} at batch ${index}, ${lines}): ${index === 1 ? "nothing was written to it" : index === 2 ? "batch 1 was written before" : `batches 1-${index - 1} were written before`}; its rows from there on are not sent`,
      range: list.idRange,
      hint: "correct the id (Email > Lists in the dashboard shows it), or use a key of the list's organization; the API has no read of email lists, so a wrong id shows only at the first batch. The other lists and the texting work are not affected",
    };
  }
  // Refused by the write port before any request (the cross-organization rule): said as it is.
  if (outcome.kind === "blocked" && outcome.refusedBy !== undefined)
    return { ...apiErrorDiagnostic(outcome.refusedBy), range: list.range };
  if (outcome.kind === "refused" && isEarlyAccess(outcome.error) && index > 1)
    return {
      severity: "error",
      code: "email.batch-failed",
      message: `email list ${list.address} (${list.id}): batch ${index} was refused with 403 EMAIL_EARLY_ACCESS after ${index === 2 ? "batch 1 was written" : `batches 1-${index - 1} were written`}: the list is partly written; its rows from batch ${index} on are not sent`,
      range: list.range,
      hint: "the organization lost email access while the list synced: ask why, then run apply again (the written batches replay under the same keys, and the rest are sent)",
    };
  if (outcome.kind === "refused" && isEarlyAccess(outcome.error))
    return {
      severity: "warning",
      code: "email.early-access",
      message: `email list ${list.address} (${list.id}) skipped: email is not yet available to its organization (403 EMAIL_EARLY_ACCESS)`,
      range: list.range,
      hint: "nothing to do in the files: they sync unchanged once email is generally available for the organization",
    };
  if (uncertain(outcome)) {
    const last = outcome.kind === "unknown" || outcome.kind === "stopped" ? outcome.error : null;
    const answer =
      last === null ? "no answer" : last.kind === "http" ? `${last.status} ${last.code}` : last.cause;
    return {
      severity: "error",
      code: "email.batch-failed",
      message: `email list ${list.address} (${list.id}): batch ${index} may or may not have been written (${outcome.sends} sends, the last answered ${answer}: no answer said); its rows are unknown and the list's later rows are not sent`,
      range: list.range,
      hint: "run apply again: the batch goes again with the same key, which the API replays if it was written, and the rest are sent",
    };
  }
  const why =
    outcome.kind === "refused" || outcome.kind === "not-taken"
      ? `${outcome.error.kind === "http" ? `${outcome.error.status} ${outcome.error.code}` : outcome.error.cause}: ${outcome.error.message}`
      : outcome.kind === "accepted"
        ? "accepted"
        : outcome.kind === "blocked" || outcome.kind === "stopped"
          ? outcome.refusal
          : `outcome ${outcome.kind} after ${outcome.sends} sends`;
  return {
    severity: "error",
    code: "email.batch-failed",
    message: `email list ${list.address} (${list.id}): batch ${index} was not written (${why}); its rows and the list's later rows are not sent`,
    range: list.range,
    hint: "run apply again: batches already written replay under the same keys, and the rest are sent",
  };
}
