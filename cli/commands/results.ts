/**
 * `campaignctl results [paths...]`: what the campaigns did over a period, per organization,
 * template, language, label or project, read from the results store only (never the API: last
 * year's results come back after the API forgot them). docs/results.md. Registered in
 * `../register/results.ts`; `results record` is `./results-record.ts`.
 */

import { join } from "node:path";
import type { ExperimentSpec, ProjectSpec } from "../../src/campaign/model.js";
import { type Diagnostic, hasErrors } from "../../src/diagnostics/diagnostic.js";
import { RESULTS_FORMAT_VERSION } from "../../src/report/results-json.js";
import { type ResultsFormat as ResultsViewFormat, resultsView } from "../../src/report/results-view.js";
import { resultsExperiments } from "../../src/results/experiments.js";
import { recordedOrganization } from "../../src/results/organization.js";
import { type PeriodFlags, periodOf, periodProblems } from "../../src/results/period.js";
import {
  buildResultsReport,
  type FileProject,
  type GroupBy,
  type GroupKind,
  type ResultsReport,
  recordedDays,
} from "../../src/results/report.js";
import { saveFiles } from "../adapters/files.js";
import { loadCampaign } from "../adapters/load-campaign.js";
import { openResultsStore, type StoreFlags, storeProblems } from "../adapters/results-store.js";
import { failWith, type JsonFailure } from "../output/fail.js";
import type { Io } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";
import { printDiagnostics } from "../output/print-diagnostics.js";
import { checkReportPaths } from "../output/report-paths.js";

/** What `results` prints on stdout (`--format`); Markdown and HTML go to files (`--markdown`, `--html`). */
export type ResultsFormat = Extract<ResultsViewFormat, "text" | "json" | "csv">;

export interface ResultsFlags extends PeriodFlags, StoreFlags {
  readonly all?: boolean;
  readonly organization?: string;
  /** `--by organization|project|template|language|label:KEY`. */
  readonly by?: string;
  readonly format?: string;
  readonly json?: boolean;
  readonly markdown?: string;
  /** `--html DIR`: the charts page, `DIR/index.html`. */
  readonly html?: string;
  readonly color?: boolean;
}

const KINDS: readonly GroupKind[] = ["organization", "project", "template", "language", "label"];
const FORMATS: readonly ResultsFormat[] = ["text", "json", "csv"];
/** No period end given: every snapshot is read. */
const END_OF_TIME = Date.UTC(9999, 11, 31);

/** `--by` parsed, or undefined when it is none of the kinds. */
export function parseGroupBy(text: string | undefined): GroupBy | undefined {
  if (text === undefined) return { kind: "organization" };
  const [kind, ...rest] = text.split(":");
  if (kind === "label") {
    const key = rest.join(":");
    return key === "" ? undefined : { kind: "label", labelKey: key };
  }
  return rest.length === 0 && (KINDS as readonly string[]).includes(kind ?? "")
    ? { kind: kind as GroupKind }
    : undefined;
}

function usageProblems(paths: readonly string[], flags: ResultsFlags): Diagnostic[] {
  const usage = (message: string, hint: string): Diagnostic => ({
    severity: "error",
    code: "cli.usage",
    message,
    hint,
  });
  const problems: Diagnostic[] = [
    ...periodProblems(flags).map((m) =>
      usage(
        m,
        "one period: --since DAY --until DAY, --month YYYY-MM, --year YYYY or --cycle YYYY (UTC days)",
      ),
    ),
    ...storeProblems(flags),
  ];
  if (flags.format !== undefined && !(FORMATS as readonly string[]).includes(flags.format))
    problems.push(
      usage(`--format ${flags.format} is not one of ${FORMATS.join(", ")}`, "--format text, json or csv"),
    );
  if (flags.json === true && flags.format !== undefined && flags.format !== "json")
    problems.push(usage(`--json and --format ${flags.format} disagree`, "give one of them"));
  const by = parseGroupBy(flags.by);
  if (by === undefined)
    problems.push(
      usage(
        `--by ${flags.by} is not a grouping`,
        "--by organization, project, template, language, or label:KEY (the value of the label KEY)",
      ),
    );
  else if (paths.length === 0 && (by.kind === "template" || by.kind === "language" || by.kind === "label"))
    problems.push({
      severity: "error",
      code: "results.files-needed",
      message: `--by ${flags.by} needs the campaign files: the store knows projects by id and name, the files say their template, language and labels`,
      hint: `give the campaign files or directories, e.g. campaignctl results campaigns/ --by ${flags.by} (add --all to count the projects the files do not describe too)`,
    });
  return problems;
}

function fileProject(p: ProjectSpec): FileProject {
  return {
    id: p.id,
    address: p.address,
    labels: p.labels ?? {},
    ...(p.origin === undefined ? {} : { template: p.origin.template, language: p.origin.language }),
  };
}

/** Runs `results`. */
export async function resultsCommand(
  paths: readonly string[],
  flags: ResultsFlags,
  io: Io,
): Promise<Outcome> {
  const wantsJson = flags.json === true || flags.format === "json";
  const json: JsonFailure = { json: wantsJson, formatVersion: RESULTS_FORMAT_VERSION };
  const usage = usageProblems(paths, flags);
  if (usage.length > 0) return failWith(usage, new Map(), io, json);
  // The view, chosen once: the command hands it the report and never looks at the format again.
  const view = resultsView(wantsJson ? "json" : ((flags.format as ResultsFormat | undefined) ?? "text"));
  const bad = await checkReportPaths(io, [{ flag: "--markdown", file: flags.markdown }]);
  if (bad.length > 0) return failWith(bad, new Map(), io, json);

  let files: FileProject[] | null = null;
  let experiments: readonly ExperimentSpec[] = [];
  if (paths.length > 0) {
    const loaded = loadCampaign(paths, io.cwd);
    const sources = new Map(loaded.campaign.files.map((f) => [f.path, f.text]));
    const errors = loaded.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) return failWith(errors, sources, io, json);
    files = loaded.campaign.projects.map(fileProject);
    experiments = loaded.campaign.experiments ?? [];
  }
  const opened = await openResultsStore(flags, io);
  if (!opened.ok) return failWith(opened.diagnostics, new Map(), io, json);
  const explicit = periodOf(flags, null, "1970-01-01");
  const bounded =
    flags.until !== undefined ||
    flags.month !== undefined ||
    flags.year !== undefined ||
    flags.cycle !== undefined;
  let read: Awaited<ReturnType<typeof opened.store.read>>;
  try {
    read = await opened.store.read(bounded ? explicit.endMs : END_OF_TIME);
  } finally {
    await opened.store.close();
  }
  if (!read.ok) return failWith(read.diagnostics, new Map(), io, json);
  const organization =
    flags.organization === undefined ? undefined : recordedOrganization(read.snapshots, flags.organization);
  if (organization?.ok === false) return failWith([organization.diagnostic], new Map(), io, json);
  const today = new Date(io.clock()).toISOString().slice(0, 10);
  const period = periodOf(flags, recordedDays(read.snapshots), today);
  const inPeriod = read.snapshots.filter((s) => Date.parse(s.at) < period.endMs);
  const built = buildResultsReport({
    snapshots: inPeriod,
    period,
    by: parseGroupBy(flags.by) ?? { kind: "organization" },
    selection: {
      files,
      all: flags.all === true,
      ...(organization === undefined ? {} : { organization: organization.id }),
    },
    store: opened.store.name,
  });
  // The experiments' verdicts over the period, from the store (docs/experiments.md).
  const ids = new Map((files ?? []).map((f) => [f.address, f.id]));
  const report =
    experiments.length === 0
      ? built
      : { ...built, experiments: resultsExperiments(experiments, ids, inPeriod, period) };
  const withRead = { ...report, diagnostics: [...read.diagnostics, ...report.diagnostics] };
  io.stdout(view(withRead));
  const diagnostics: Diagnostic[] = [...withRead.diagnostics];
  const outputs = resultsOutputs(flags, withRead);
  if (outputs.length > 0) diagnostics.push(...(await saveFiles(io, outputs)));
  printDiagnostics(io, "stderr", diagnostics, new Map(), { verbose: false, color: flags.color !== false });
  return hasErrors(diagnostics) ? failure : success;
}

/** The files `--markdown FILE` and `--html DIR` ask for. */
function resultsOutputs(flags: ResultsFlags, withRead: ResultsReport) {
  return [
    ...(flags.markdown === undefined
      ? []
      : [
          {
            path: flags.markdown,
            text: resultsView("markdown")(withRead),
            what: "Markdown results",
          },
        ]),
    ...(flags.html === undefined
      ? []
      : [
          {
            path: join(flags.html, "index.html"),
            text: resultsView("html")(withRead),
            what: "results charts",
          },
        ]),
  ];
}
