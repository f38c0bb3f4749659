/**
 * The reads of a recording (docs/results.md "Recording"): every key lists `GET /projects/stats`
 * on its own (in parallel, each through its own client and rate limiter), `limit=1000` page after
 * page, over the windows of the range, so a key that sees N projects costs ceil(N/1000) pages per
 * window (one page when it sees none). Each row becomes a snapshot at the API's time its page
 * arrived. A project listed by several keys (a parent's key sees its descendants) or windows is
 * recorded once: the first key in the given order, the newest window, wins. Pure: the readers and
 * the clock are handed in.
 */
import { type ApiError, apiErrorDiagnostic, keyFailureHint, refusesKey } from "../api/index.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { listStatsWindow, type StatsReader, type StatsWindow } from "../plan/refresh-stats.js";
import { type ResultsSnapshot, snapshotOfRow } from "./snapshot.js";

/** One key's statistics reader, and where the key came from (a variable's name, never the key). */
export interface KeyReader {
  readonly source: string;
  readonly read: StatsReader;
}

/**
 * A key that could not be used at all: its `GET /organizations` check failed (a blip that outlasted
 * the retries, a refused key), so its statistics were never listed. It is a key that failed like one
 * whose listing failed: its projects are not recorded this time, and the recording is not whole
 * (unless the API refused the key itself: nothing later in the run can read it, `KeyReads.retry`).
 */
export interface UnusableKey {
  readonly source: string;
  readonly error: ApiError;
}

/** What one key's listing cost and found. */
export interface KeyReads {
  readonly source: string;
  /** `GET /projects/stats` requests made (pages, over every window). */
  readonly pages: number;
  /** Rows listed (before de-duplication across keys). */
  readonly rows: number;
  /** False when a page failed: the key's projects are not recorded this time. */
  readonly ok: boolean;
  /**
   * When not `ok`: whether recording again in the same run may read it. False only for a key whose
   * check the API refused (401, 403): a run never checks such a key again (key-recheck.ts).
   */
  readonly retry: boolean;
}

/**
 * The snapshots read, in key order. Invariant: one snapshot per project id; `ok` false only when
 * every key failed (then `diagnostics` holds an error).
 */
export type Reading =
  | {
      readonly ok: true;
      readonly snapshots: readonly ResultsSnapshot[];
      readonly keys: readonly KeyReads[];
      readonly diagnostics: readonly Diagnostic[];
    }
  | { readonly ok: false; readonly keys: readonly KeyReads[]; readonly diagnostics: readonly Diagnostic[] };

/**
 * Lists every window for every key and makes the snapshots; `now` is the API's clock. `unusable`:
 * the keys whose check failed, each counted as a key that failed (never left out: a recording
 * without them is not whole, and one where no key could be used is an error).
 */
export async function readForRecording(
  readers: readonly KeyReader[],
  windows: readonly StatsWindow[],
  now: () => Date,
  unusable: readonly UnusableKey[] = [],
): Promise<Reading> {
  const perKey = [
    ...(await Promise.all(readers.map((reader) => listKey(reader, windows, now)))),
    ...unusable.map((key) => ({
      reads: { source: key.source, pages: 0, rows: 0, ok: false, retry: !refusesKey(key.error) },
      snapshots: [],
      diagnostics: [unreadable(`the key in ${key.source} could not be used`, key.error)],
    })),
  ];
  const seen = new Set<string>();
  const snapshots: ResultsSnapshot[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const key of perKey) {
    diagnostics.push(...key.diagnostics);
    for (const s of key.snapshots)
      if (!seen.has(s.project_id)) {
        seen.add(s.project_id);
        snapshots.push(s);
      }
  }
  const keys = perKey.map((k) => k.reads);
  if (keys.length > 0 && keys.every((k) => !k.ok))
    return {
      ok: false,
      keys,
      diagnostics: diagnostics.map((d) =>
        d.code === "results.key-unreadable" ? { ...d, severity: "error" } : d,
      ),
    };
  return { ok: true, snapshots, keys, diagnostics };
}

async function listKey(
  reader: KeyReader,
  windows: readonly StatsWindow[],
  now: () => Date,
): Promise<{ reads: KeyReads; snapshots: ResultsSnapshot[]; diagnostics: Diagnostic[] }> {
  const byId = new Map<string, ResultsSnapshot>();
  const diagnostics: Diagnostic[] = [];
  let pages = 0;
  let rows = 0;
  for (const window of windows) {
    const listed = await listStatsWindow(reader.read, window, (page) => {
      const at = now();
      rows += page.length;
      for (const row of page) {
        if (byId.has(row.id)) continue;
        const snapshot = snapshotOfRow(row, at);
        if (snapshot !== undefined) byId.set(row.id, snapshot);
        else
          diagnostics.push({
            severity: "warning",
            code: "results.row-unrecordable",
            message: `project ${row.id}: actual_cost ${JSON.stringify(row.actual_cost)} is not a decimal with at most 4 decimals; the project is not recorded this time`,
            hint: "report it to the API's vendor; the other projects are recorded",
          });
      }
    });
    if (!listed.ok) {
      pages += listed.error.attempts > 0 ? 1 : 0;
      diagnostics.push(
        unreadable(`the statistics of the key in ${reader.source} could not be read`, listed.error),
      );
      return {
        reads: { source: reader.source, pages, rows, ok: false, retry: true },
        snapshots: [],
        diagnostics,
      };
    }
    pages += listed.pages;
  }
  return {
    reads: { source: reader.source, pages, rows, ok: true, retry: false },
    snapshots: [...byId.values()],
    diagnostics,
  };
}

/** `results.key-unreadable`: `what` (a key's check or its statistics) failed with `error`. */
function unreadable(what: string, error: ApiError): Diagnostic {
  const api = apiErrorDiagnostic(error);
  return {
    ...api,
    severity: "warning",
    code: "results.key-unreadable",
    message: `${what} (${api.message}): its projects are not recorded this time`,
    hint: keyFailureHint(error, "the other keys' projects are recorded, and the next recording catches up"),
  };
}
