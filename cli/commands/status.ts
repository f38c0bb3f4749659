/**
 * `campaignctl status [paths...]`: the live figures of the campaign files' projects (or, with
 * `--all` / `--organization`, of every project the statistics list), read in bulk from
 * `GET /projects/stats` (`src/status/read-live.ts`), as a terminal table, JSON, CSV, and a Markdown
 * file. Registered in `../register/status.ts`.
 *
 * The table fits the terminal: `--width N`, else `$COLUMNS`, else the terminal's width when stdout
 * is one; otherwise (a pipe, a file) every column is shown.
 */

import { resolve } from "node:path";
import { type ListingScope, listingGaps } from "../../src/api/routing/listing-gaps.js";
import { emailOwners, projectOwners } from "../../src/api/routing/owners.js";
import { routeOwners } from "../../src/api/routing/route-owners.js";
import type { ExperimentSpec, ProjectSpec } from "../../src/campaign/model.js";
import { type Diagnostic, hasErrors } from "../../src/diagnostics/diagnostic.js";
import type { EmailCampaignSpec } from "../../src/email/model.js";
import { type StatusReplies, summarizeAnswered } from "../../src/replies/answered-summary.js";
import { ANSWERED_FILE_NAME } from "../../src/replies/state-file.js";
import { renderRecordText } from "../../src/report/results-record-view.js";
import { STATUS_FORMAT_VERSION } from "../../src/report/status-json.js";
import {
  type StatusRead,
  type StatusFormat as StatusViewFormat,
  statusView,
} from "../../src/report/status-view.js";
import { statusExperiments } from "../../src/status/experiments.js";
import { isDay } from "../../src/status/range.js";
import { type FileProject, readStatusLive } from "../../src/status/read-live.js";
import { buildStatusReport } from "../../src/status/report.js";
import { createFileCache } from "../adapters/file-cache.js";
import { saveFile } from "../adapters/files.js";
import { loadCampaign } from "../adapters/load-campaign.js";
import { readAnsweredRecord } from "../adapters/replies-state.js";
import { statusEmail } from "../email/status-email.js";
import { DEFAULT_REPLIES_STATE } from "../flags/flag-defaults.js";
import type { Session, SessionFlags, SessionOptions } from "../gather/session.js";
import { failWith, type JsonFailure } from "../output/fail.js";
import type { Io } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";
import { printDiagnostics } from "../output/print-diagnostics.js";
import { checkReportPaths } from "../output/report-paths.js";
import { openSessionWithProgress } from "../progress/session-progress.js";
import { recordProblems, recordResults, storeFlagsOf } from "./results-record.js";

/** What `status` prints on stdout (`--format`); the Markdown view goes to `--markdown FILE`. */
export type StatusFormat = Exclude<StatusViewFormat, "markdown">;

/** The flags of `status`, as commander parses them. */
export interface StatusFlags extends SessionFlags {
  readonly all?: boolean;
  readonly organization?: string;
  /** `--since YYYY-MM-DD`. */
  readonly since?: string;
  /** `--format`; undefined when not given (then `--json` decides). */
  readonly format?: StatusFormat;
  readonly json?: boolean;
  readonly markdown?: string;
  /** `--width N`, as typed. */
  readonly width?: string;
  /** False with `--no-estimate`. */
  readonly estimate?: boolean;
  readonly refresh?: boolean;
  /** False with `--no-color`. */
  readonly color?: boolean;
  /** `--replies-state DIR`: the replies worker's state; undefined: its default, when it has a record. */
  readonly repliesState?: string;
  /** `--record`: also record every project the keys see into the results store (docs/results.md). */
  readonly record?: boolean;
  /** `--store`, `--results-dir`: the results store `--record` writes to. */
  readonly store?: string;
  readonly resultsDir?: string;
}

/** The smallest `--width` a table can be drawn in (the project column and the status). */
export const MIN_WIDTH = 20;

/** Runs `status`. Exported so tests can inject the client's clock and sleep. */
export async function statusCommand(
  paths: readonly string[],
  flags: StatusFlags,
  io: Io,
  options: SessionOptions = {},
): Promise<Outcome> {
  const wantsJson = flags.json === true || flags.format === "json";
  const json: JsonFailure = { json: wantsJson, formatVersion: STATUS_FORMAT_VERSION };
  const usage = [
    ...usageProblems(flags),
    ...(flags.record === true ? recordProblems(storeFlagsOf(flags)) : []),
  ];
  if (usage.length > 0) return failWith(usage, new Map(), io, json);
  // The view, chosen once: the command hands it the status and never looks at the format again.
  const view = statusView(flags.format ?? (flags.json === true ? "json" : "text"), {
    width: tableWidth(flags, io),
  });

  const badPaths = await checkReportPaths(io, [{ flag: "--markdown", file: flags.markdown }]);
  if (badPaths.length > 0) return failWith(badPaths, new Map(), io, json);

  const listing = flags.all === true || flags.organization !== undefined;
  const filePaths = paths.length === 0 && !listing ? ["."] : [...paths];
  const read = readStatusFiles(filePaths, io.cwd);
  if (read.errors.length > 0) return failWith(read.errors, read.sources, io, json);
  const { files, emailCampaigns, experiments, specs, sources } = read;

  const opened = await openSessionWithProgress(flags, io, "status", options);
  if (!opened.ok) return failWith(opened.diagnostics, new Map(), io, json);
  const { session, progress } = opened;
  try {
    // Keys per organization: each project's reads go with its own organization's key; a listing
    // (--all, --organization) reads what every key sees.
    const routing = await routeOwners(
      session.router,
      [...projectOwners(specs), ...emailOwners({ lists: [], campaigns: emailCampaigns })],
      // --record reads what every key sees, as a listing does.
      { everyKey: listing || flags.record === true },
    );
    if (!routing.ok) {
      progress.finish();
      return failWith(routing.diagnostics, sources, io, json);
    }
    const estimates = flags.estimate !== false;
    const live = await readLive(session, flags, files, io.cwd, estimates);
    // Email campaigns the files describe (docs/email.md): counts, rates, guard alerts.
    const email = live.ok ? await statusEmail(emailCampaigns, session.router) : undefined;
    progress.finish();
    // Routing's warnings (a key that could not be used) go with the reads' outcome, failed or not.
    if (!live.ok) return failWith([...routing.diagnostics, ...live.diagnostics], new Map(), io, json);
    const replies = readReplies(flags, io);
    const built = buildStatusReport(
      live,
      { paths: filePaths, all: flags.all === true, organization: flags.organization ?? null },
      estimates,
    );
    // The experiments' verdicts on the live statistics (docs/experiments.md).
    const report =
      experiments.length === 0
        ? built
        : { ...built, experiments: statusExperiments(experiments, built.projects) };
    const status: StatusRead = { report, email, replies: replies.summary };
    io.stdout(view(status));
    const diagnostics: Diagnostic[] = [
      // A listing (--all, --organization): a key it missed is said, and fails it (listing-gaps.ts).
      ...(listing ? await listingGaps(session.router, listingScope(flags)) : routing.diagnostics),
      ...report.diagnostics,
      ...replies.diagnostics,
      ...(email?.diagnostics ?? []),
    ];
    diagnostics.push(...(await saveStatusMarkdown(io, flags, status)));
    // --record: every project the keys see, into the results store (after the status is shown).
    if (flags.record === true) diagnostics.push(...(await recordAfterStatus(session, flags, io)));
    printDiagnostics(io, "stderr", diagnostics, new Map(), { verbose: false, color: flags.color !== false });
    return hasErrors(diagnostics) ? failure : success;
  } finally {
    await session.close();
  }
}

/** What `--all` / `--organization` list: with `--all`, everything (files and `--organization` too). */
function listingScope(flags: StatusFlags): ListingScope {
  return flags.all === true || flags.organization === undefined ? {} : { organization: flags.organization };
}

/**
 * The replies worker's record, summarized (docs/replies.md, "Records"). No record: no replies shown,
 * silently at the default directory, with a warning when `--replies-state` named the directory.
 */
function readReplies(
  flags: StatusFlags,
  io: Io,
): { summary: StatusReplies | null; diagnostics: Diagnostic[] } {
  const state = flags.repliesState ?? DEFAULT_REPLIES_STATE;
  const missing = (why: string): Diagnostic[] =>
    flags.repliesState === undefined
      ? []
      : [
          {
            severity: "warning",
            code: "replies.record-missing",
            message: `--replies-state ${state}: ${why}: no replies are shown`,
            hint: "give the --state directory of `replies run` (it writes answered.jsonl there once it has settled an inbound)",
          },
        ];
  let lines: ReturnType<typeof readAnsweredRecord>;
  try {
    lines = readAnsweredRecord(resolve(io.cwd, state));
  } catch (error) {
    return { summary: null, diagnostics: missing(error instanceof Error ? error.message : String(error)) };
  }
  if (lines === null) return { summary: null, diagnostics: missing(`there is no ${ANSWERED_FILE_NAME}`) };
  return { summary: { state, projects: summarizeAnswered(lines) }, diagnostics: [] };
}

/** Flags that cannot work together or are malformed; checked before any request. */
function usageProblems(flags: StatusFlags): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const usage = (message: string, hint: string): void => {
    problems.push({ severity: "error", code: "cli.usage", message, hint });
  };
  if (flags.json === true && flags.format !== undefined && flags.format !== "json")
    usage(`--json and --format ${flags.format} disagree`, "give one of them");
  if (flags.since !== undefined && !isDay(flags.since))
    usage(
      `--since ${flags.since} is not a day written YYYY-MM-DD`,
      "for example --since 2026-11-01 (a UTC day)",
    );
  if (flags.width !== undefined && !(/^\d+$/.test(flags.width) && Number(flags.width) >= MIN_WIDTH))
    usage(
      `--width ${flags.width} is not a number of columns of at least ${MIN_WIDTH}`,
      "for example --width 120",
    );
  return problems;
}

/** The width the table must fit in, or null for no limit (see the module comment). */
function tableWidth(flags: StatusFlags, io: Io): number | null {
  if (flags.width !== undefined) return Number(flags.width);
  const columns = io.env.COLUMNS;
  if (columns !== undefined && /^\d+$/.test(columns) && Number(columns) >= MIN_WIDTH) return Number(columns);
  if (io.stdoutIsTTY) {
    const terminal = process.stdout.columns;
    if (typeof terminal === "number" && terminal > 0) return Math.max(MIN_WIDTH, terminal);
  }
  return null;
}

/** The campaign files `status` reads (none for a listing): the projects, email campaigns, experiments. */
function readStatusFiles(filePaths: readonly string[], cwd: string) {
  const none = {
    files: [] as FileProject[],
    emailCampaigns: [] as readonly EmailCampaignSpec[],
    experiments: [] as readonly ExperimentSpec[],
    specs: [] as readonly ProjectSpec[],
    sources: new Map<string, string>(),
    errors: [] as Diagnostic[],
  };
  if (filePaths.length === 0) return none;
  const loaded = loadCampaign(filePaths, cwd);
  const specs = loaded.campaign.projects;
  return {
    files: specs.map((p) => ({ id: p.id, address: p.address })),
    emailCampaigns: loaded.campaign.emailCampaigns ?? [],
    experiments: loaded.campaign.experiments ?? [],
    specs,
    sources: new Map(loaded.campaign.files.map((f) => [f.path, f.text])),
    errors: loaded.diagnostics.filter((d) => d.severity === "error"),
  };
}

/** The live figures of the selection (files, `--all` or `--organization`), read in bulk and cached. */
function readLive(
  session: Session,
  flags: StatusFlags,
  files: FileProject[],
  cwd: string,
  estimates: boolean,
) {
  return readStatusLive({
    reader: session.client,
    selection: {
      files,
      all: flags.all === true,
      ...(flags.organization === undefined ? {} : { organization: flags.organization }),
    },
    since: flags.since,
    now: () => session.now(),
    estimates,
    cache: createFileCache(cwd, session.apiId),
    refresh: flags.refresh === true,
  });
}

/** `--markdown FILE`: the status in the Markdown view, written; nothing without the flag. */
async function saveStatusMarkdown(
  io: Io,
  flags: StatusFlags,
  status: StatusRead,
): Promise<readonly Diagnostic[]> {
  if (flags.markdown === undefined) return [];
  return await saveFile(
    io,
    flags.markdown,
    statusView("markdown", { width: null })(status),
    "Markdown status",
  );
}

/** `--record`: every project the keys see, into the results store, said on stderr. */
async function recordAfterStatus(
  session: Session,
  flags: StatusFlags,
  io: Io,
): Promise<readonly Diagnostic[]> {
  const recorded = await recordResults(session, storeFlagsOf(flags), io, true);
  io.stderr(renderRecordText(recorded));
  return recorded.diagnostics;
}
