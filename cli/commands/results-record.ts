/**
 * `campaignctl results record`: reads the statistics of every project the keys see (each key on its
 * own, `src/results/record.ts`) and appends their snapshots to the results store (docs/results.md
 * "Recording"). `status --record` and `watch --record` record through `recordResults` with their own
 * session. Registered in `../register/results.ts`.
 */
import { type Diagnostic, hasErrors } from "../../src/diagnostics/diagnostic.js";
import { recordView, renderRecordText } from "../../src/report/results-record-view.js";
import { readForRecording } from "../../src/results/record.js";
import { afterRecording, NO_RECORDING, type RecordHours, recordDue } from "../../src/results/record-hours.js";
import { type RecordSummary, recordedWhole } from "../../src/results/record-summary.js";
import { hourOf } from "../../src/results/snapshot.js";
import { isDay, statusRange } from "../../src/status/range.js";
import { keysInUse, recordingKeys, unusableKeys } from "../adapters/results-keys.js";
import { openResultsStore, type StoreFlags, storeProblems } from "../adapters/results-store.js";
import { openSession, type Session, type SessionFlags, type SessionOptions } from "../gather/session.js";
import { failWith, type JsonFailure } from "../output/fail.js";
import type { Io } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";
import { printDiagnostics } from "../output/print-diagnostics.js";

/** The version of `results record --json`'s document (schemas/results-record-result.schema.json). */
export const RECORD_FORMAT_VERSION = 1;

/** The flags of `results record`. */
export interface RecordFlags extends SessionFlags, StoreFlags {
  /** `--since DAY`: the first UTC day of the range read (default: 30 days before today). */
  readonly since?: string;
  /** `--days N`: the range is the last N days on the API's clock, today included (1 to 90; default 31). */
  readonly days?: string;
  readonly json?: boolean;
  /** False with `--no-color`. */
  readonly color?: boolean;
}

const DAY_MS = 86_400_000;

/** The store flags of `status --record` and `watch --record` (`--store`, `--results-dir`). */
export function storeFlagsOf(flags: { readonly store?: string; readonly resultsDir?: string }): StoreFlags {
  return {
    ...(flags.store === undefined ? {} : { store: flags.store }),
    ...(flags.resultsDir === undefined ? {} : { dir: flags.resultsDir }),
  };
}

/** The problems of the recording flags, before any request. */
export function recordProblems(
  flags: StoreFlags & { readonly since?: string; readonly days?: string },
): Diagnostic[] {
  const problems = storeProblems(flags);
  if (
    flags.days !== undefined &&
    !(/^\d+$/.test(flags.days) && Number(flags.days) >= 1 && Number(flags.days) <= 90)
  )
    problems.push({
      severity: "error",
      code: "cli.usage",
      message: `--days ${flags.days} is not a number of days from 1 to 90`,
      hint: "--days 31 (the default: the newest statistics window) or --days 90 (every window the API allows)",
    });
  if (flags.days !== undefined && flags.since !== undefined)
    problems.push({
      severity: "error",
      code: "cli.usage",
      message: "--days and --since disagree: give one",
      hint: "--days N counts back from today on the API's clock; --since DAY names the first day",
    });
  if (flags.since !== undefined && !isDay(flags.since))
    problems.push({
      severity: "error",
      code: "cli.usage",
      message: `--since ${flags.since} is not a day written YYYY-MM-DD`,
      hint: "for example --since 2026-11-01 (a UTC day, at most 89 days ago)",
    });
  return problems;
}

/**
 * Records through `session`. With `routed`, the session's keys were already routed with every key in
 * use (`status --record`, `watch --record`); otherwise every key is routed here.
 */
export async function recordResults(
  session: Session,
  flags: StoreFlags & { readonly since?: string; readonly days?: string },
  io: Io,
  routed = false,
): Promise<RecordSummary> {
  const keys = routed ? { ok: true as const, readers: keysInUse(session) } : await recordingKeys(session);
  const base = {
    store: flags.dir ?? (flags.store === "postgres" ? "PostgreSQL" : "results"),
    keys: [],
    projects: 0,
    counts: null,
  };
  if (!keys.ok)
    return {
      ...base,
      at: session.now().toISOString(),
      hour: hourOf(session.now()),
      windows: [],
      diagnostics: keys.diagnostics,
    };
  // Today on the API's clock: one response must have carried its Date header (the key check did, with keys per organization).
  if (session.clockReading() === null && session.sandbox === null) {
    await session.client.listOrganizations();
  }
  const now = session.now();
  const back = Number(flags.days ?? "31") - 1;
  const since =
    flags.since ??
    new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - back * DAY_MS).toISOString().slice(0, 10);
  const range = statusRange(now, since);
  const stamp = { at: now.toISOString(), hour: hourOf(now) };
  if (!range.ok) return { ...base, ...stamp, windows: [], diagnostics: [range.diagnostic] };
  const windows = range.range.windows.map((w) => ({ startDate: w.startDate, endDate: w.endDate }));
  const reading = await readForRecording(
    keys.readers,
    range.range.windows,
    () => session.now(),
    await unusableKeys(session),
  );
  const diagnostics: Diagnostic[] = [...reading.diagnostics];
  const common = { ...base, ...stamp, windows, keys: reading.keys };
  if (!reading.ok) return { ...common, diagnostics };
  const opened = await openResultsStore(flags, io);
  if (!opened.ok)
    return {
      ...common,
      projects: reading.snapshots.length,
      diagnostics: [...diagnostics, ...opened.diagnostics],
    };
  try {
    const written = await opened.store.write(reading.snapshots);
    diagnostics.push(...written.diagnostics);
    return {
      ...common,
      store: opened.store.name,
      projects: reading.snapshots.length,
      counts: written.ok ? written : null,
      diagnostics,
    };
  } finally {
    await opened.store.close();
  }
}

/**
 * `watch --record`: a check of every poll (`AlsoPolled`) that records once per hour of the API's
 * clock: on the first poll, then on the first poll of each new hour; a recording that did not record
 * the hour whole (`recordedWhole`) is tried again a minute later in the same hour
 * (src/results/record-hours.ts). Its summary is an info note.
 */
export function hourlyRecorder(
  session: Session,
  flags: StoreFlags,
  io: Io,
): () => Promise<{ readonly diagnostics: readonly Diagnostic[] }> {
  let hours: RecordHours = NO_RECORDING;
  return async () => {
    const now = session.now();
    const hour = hourOf(now);
    if (!recordDue(hours, hour, now.getTime())) return { diagnostics: [] };
    const summary = await recordResults(session, flags, io, true);
    const whole = recordedWhole(summary);
    hours = afterRecording(hours, hour, now.getTime(), whole);
    const note: Diagnostic = {
      severity: "info",
      code: "results.recorded",
      message: renderRecordText(summary).trim().split("\n")[0] ?? "",
      ...(whole
        ? {}
        : {
            hint: `watch records hour ${hour} again on a poll a minute from now or later (the diagnostics say why)`,
          }),
    };
    return { diagnostics: [note, ...summary.diagnostics] };
  };
}

/** Runs `results record`. Exported so tests and the benchmark can inject the client's clock and sleep. */
export async function resultsRecordCommand(
  flags: RecordFlags,
  io: Io,
  options: SessionOptions = {},
): Promise<Outcome> {
  const json: JsonFailure = { json: flags.json === true, formatVersion: RECORD_FORMAT_VERSION };
  // The view, chosen once: the command hands it the summary and never looks at the format again.
  const view = recordView(flags.json === true ? "json" : "text");
  const usage = recordProblems(flags);
  if (usage.length > 0) return failWith(usage, new Map(), io, json);
  const opened = await openSession(flags, io, options);
  if (!opened.ok) return failWith(opened.diagnostics, new Map(), io, json);
  try {
    const summary = await recordResults(opened.session, flags, io);
    io.stdout(view(summary));
    printDiagnostics(io, "stderr", summary.diagnostics, new Map(), {
      verbose: false,
      color: flags.color !== false,
    });
    return hasErrors(summary.diagnostics) || summary.counts === null ? failure : success;
  } finally {
    await opened.session.close();
  }
}
