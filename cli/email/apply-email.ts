/**
 * The email part of `apply` (IO): syncs each list the plan says to sync (src/email/sync.ts, through
 * the one write executor), writing one JSON line per CSV row to a result file beside the journal
 * (`.campaignctl/journal/email-<stamp>-<pid>-<list>.jsonl`, `schemas/email-row-result.schema.json`),
 * flushed after every batch (group commit: a killed run leaves every settled row on disk).
 */
import { type BigIntStats, closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join, relative } from "node:path";
import type { ApiClient, Sleep } from "../../src/api/index.js";
import { WRITE_FIRST_BACKOFF_MS, WRITE_MAX_ATTEMPTS } from "../../src/api/write-retry.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { ListSyncResult } from "../../src/email/list-results.js";
import type { EmailListSpec } from "../../src/email/model.js";
import { type RowResult, syncList } from "../../src/email/sync.js";
import type { EmailApplyResult, EmailListItem, PlanEmail } from "../../src/plan/items.js";
import { nameMap } from "../../src/text/names.js";
import { JOURNAL_DIR, journalStamp } from "../adapters/journal-file.js";
import { csvStamp, handleSha256, sameStamp } from "./csv-identity.js";
import { type OpenedCsv, openCsv, openedCsvVerdicts } from "./csv-rows.js";

export interface EmailApplyDeps {
  readonly client: ApiClient;
  readonly cwd: string;
  readonly sleep: Sleep;
  readonly signal: AbortSignal;
  /** Wall-clock start of the run, for the file names. */
  readonly startedAt: Date;
  readonly pid: number;
  readonly requireConsent: boolean;
}

/** Lines kept in memory before they are written (and always at the end of each batch). */
const FLUSH_LINES = 1000;

/**
 * Syncs the plan's email lists (`plan.lists`, each with its spec among `specs`, the campaign's
 * email lists): those the plan says to sync, in plan order; the others are reported as not sent.
 */
export async function applyEmail(
  specs: readonly EmailListSpec[],
  plan: PlanEmail,
  deps: EmailApplyDeps,
): Promise<EmailApplyResult> {
  const lists: ListSyncResult[] = [];
  const files = nameMap<string>();
  const byAddress = new Map(specs.map((s) => [s.address, s]));
  for (const planList of plan.lists) {
    const spec = byAddress.get(planList.address);
    if (spec === undefined) continue;
    if (planList.state === "skipped" || planList.state === "unreadable" || deps.signal.aborted) {
      lists.push(nothingSent(spec, planList, planList.state === "skipped" ? "skipped" : "failed", []));
      continue;
    }
    // The CSV must still be the one the plan read (and was approved or saved): else nothing is sent.
    const csv = await openApproved(spec, planList, deps.cwd);
    if (!csv.ok) {
      lists.push(nothingSent(spec, planList, "failed", [filesChanged(spec, "before")]));
      continue;
    }
    const dir = join(deps.cwd, JOURNAL_DIR);
    let opened: { readonly path: string; readonly fd: number };
    try {
      mkdirSync(dir, { recursive: true });
      opened = openNew(join(dir, `email-${journalStamp(deps.startedAt)}-${deps.pid}-${spec.address}`));
    } catch (error) {
      // No row is sent whose result could not be kept.
      await csv.opened.handle.close();
      lists.push(
        nothingSent(spec, planList, "failed", [
          {
            severity: "error",
            code: "email.batch-failed",
            message: `email list ${spec.address}: nothing sent: the per-row result file cannot be written under ${JOURNAL_DIR} (${(error as { code?: string }).code ?? String(error)})`,
            range: spec.range,
            hint: "make the directory writable and run apply again",
          },
        ]),
      );
      continue;
    }
    files[spec.address] = relative(deps.cwd, opened.path);
    try {
      lists.push(await syncToFile(spec, opened.fd, deps, csv));
    } finally {
      await csv.opened.handle.close();
    }
  }
  return { plan, lists, results_files: files };
}

/**
 * One list's sync, each row's result written to the open result file `fd` (closed at the end):
 * buffered, and flushed before every request, so every row settled so far is on disk.
 */
async function syncToFile(
  spec: EmailListSpec,
  fd: number,
  deps: EmailApplyDeps,
  csv: ApprovedCsv,
): Promise<ListSyncResult> {
  let buffer: string[] = [];
  const flush = (): void => {
    if (buffer.length === 0) return;
    writeSync(fd, buffer.join(""));
    buffer = [];
  };
  try {
    const onRow = (row: RowResult): void => {
      buffer.push(`${JSON.stringify(row)}\n`);
      if (buffer.length >= FLUSH_LINES) flush();
    };
    const problems: string[] = [];
    const result = await syncList(
      spec,
      openedCsvVerdicts(csv.opened, spec, deps.requireConsent, (d) =>
        problems.push(...d.map((x) => x.message)),
      ),
      {
        upsert: async (listId, contacts, key) => {
          flush(); // every row settled so far is on disk before the next request
          return deps.client.upsertEmailContacts(listId, contacts, key);
        },
        executor: {
          maxAttempts: WRITE_MAX_ATTEMPTS,
          firstBackoffMs: WRITE_FIRST_BACKOFF_MS,
          sleep: deps.sleep,
          signal: deps.signal,
        },
        onRow,
        // Every row of a batch was read before this look: unchanged bytes mean approved rows.
        beforeBatch: () => (sameStamp(csv.opened.handle, csv.stat) ? null : filesChanged(spec, "while")),
      },
    );
    flush();
    if (problems.length === 0) return result;
    return {
      ...result,
      state: "failed",
      diagnostics: [
        ...result.diagnostics,
        ...problems.map((message) => ({
          severity: "error" as const,
          code: "email.csv-malformed" as const,
          message: `${message} (the CSV changed after the plan read it?)`,
        })),
      ],
    };
  } finally {
    closeSync(fd);
  }
}

/** The CSV the plan read, open: rows are read from this very file, whose bytes were hashed after `stat`. */
interface ApprovedCsv {
  readonly opened: OpenedCsv;
  readonly stat: BigIntStats;
}

/**
 * The list's CSV opened once, its stat taken, then its bytes hashed through that same handle and
 * compared with the plan's digest; not ok (the handle closed) when unreadable or different. The rows
 * are then read from this handle: a file renamed over the path later is not read, and one written
 * in place shows in its stat (`sameStamp`).
 */
async function openApproved(
  spec: EmailListSpec,
  planList: EmailListItem,
  cwd: string,
): Promise<({ readonly ok: true } & ApprovedCsv) | { readonly ok: false }> {
  const opened = await openCsv(spec, cwd);
  if (!opened.ok) return { ok: false };
  try {
    const stat = csvStamp(opened.handle);
    const digest = await handleSha256(opened.handle);
    if (planList.sha256 === null || digest === planList.sha256) return { ok: true, opened, stat };
  } catch {
    // unreadable: as changed
  }
  await opened.handle.close();
  return { ok: false };
}

/**
 * `apply.files-changed` of a list whose CSV is not the one the plan read: before its first batch
 * (`before`: nothing sent), or while its batches were sent (the later ones are not).
 */
function filesChanged(spec: EmailListSpec, when: "before" | "while"): Diagnostic {
  const what =
    when === "before"
      ? `nothing sent: its CSV ${spec.csvPath} changed (or became unreadable) after the plan read it`
      : `its CSV ${spec.csvPath} changed while its batches were sent: the batches sent before went from the file the plan read; no later row is sent`;
  return {
    severity: "error",
    code: "apply.files-changed",
    message: `email list ${spec.address}: ${what}`,
    range: spec.csvRange,
    hint: "plan again, review the rows, and apply",
  };
}

/** A new file `<base>.jsonl` (or `<base>-2.jsonl`, ...): two runs never share a result file. */
function openNew(base: string): { readonly path: string; readonly fd: number } {
  for (let n = 1; ; n++) {
    const path = n === 1 ? `${base}.jsonl` : `${base}-${n}.jsonl`;
    try {
      return { path, fd: openSync(path, "wx", 0o600) };
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST" || n >= 1000) throw error;
    }
  }
}

/** A list's result when no row of it was sent: `skipped` counts its rows to send as skipped, else not sent. */
function nothingSent(
  spec: EmailListSpec,
  planList: EmailListItem,
  state: "skipped" | "failed",
  diagnostics: ListSyncResult["diagnostics"],
): ListSyncResult {
  return {
    address: spec.address,
    list_id: spec.id,
    state,
    rows: planList.rows,
    accepted: 0,
    rejected: 0,
    duplicates: 0,
    refused: planList.refused,
    skipped: state === "skipped" ? planList.to_send : 0,
    not_sent: state === "skipped" ? 0 : planList.to_send,
    unknown: 0,
    batches: [],
    diagnostics,
  };
}
