/**
 * `campaignctl plan [paths...]`: runs the plan pipeline against the live API (or the embedded
 * sandbox), prints the plan, and saves the `--out`/`--markdown` files. Registered in `../register/plan.ts`.
 */

import { approvalsNote } from "../../src/approvals/note.js";
import { instancePlaces } from "../../src/campaign/template-findings.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { Judgement } from "../../src/plan/judge.js";
import { summaryTotals } from "../../src/plan/summary.js";
import { PLAN_FORMAT_VERSION, type Plan } from "../../src/plan/types.js";
import { planView } from "../../src/report/plan-view.js";
import { saveFile } from "../adapters/files.js";
import { planCommit } from "../adapters/github-event.js";
import type { PolicyFlags } from "../adapters/policy-file.js";
import { commonDirectory, snapshotOfLive, writeSnapshot } from "../adapters/snapshot-file.js";
import type { KeyScopeFlags } from "../flags/key-scope-flag.js";
import { type PlanPipelineResult, runPlanPipeline } from "../gather/plan-pipeline.js";
import type { SessionOptions } from "../gather/session.js";
import { failWith, type JsonFailure } from "../output/fail.js";
import { type Io, useColor } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";
import { printDiagnostics } from "../output/print-diagnostics.js";
import { checkReportPaths } from "../output/report-paths.js";
import { openSessionWithProgress } from "../progress/session-progress.js";

/** The flags of `plan`, as commander parses them. */
export interface PlanFlags extends PolicyFlags, KeyScopeFlags {
  readonly sandbox?: boolean;
  /** `--fixture`: the embedded sandbox's fixture file (only with `--sandbox`). */
  readonly fixture?: string;
  readonly baseUrl?: string;
  readonly apiKeyEnv?: string;
  readonly refresh?: boolean;
  readonly target: readonly string[];
  readonly exclude: readonly string[];
  readonly json?: boolean;
  readonly markdown?: string;
  /** `--gallery-url`: the Markdown report links the preview gallery published there. */
  readonly galleryUrl?: string;
  readonly out?: string;
  readonly detailedExitcode?: boolean;
  /** False with `--no-color`. */
  readonly color: boolean;
  /** `--verbose`: also the table of API requests by endpoint. */
  readonly verbose?: boolean;
  /** `--forecast`: also the forecast of the scheduled projects (docs/forecast.md). */
  readonly forecast?: boolean;
}

/** Runs `plan`. Exported so tests and benchmarks can inject the clock and sleep of the client. */
export async function planCommand(
  paths: readonly string[],
  flags: PlanFlags,
  io: Io,
  options: SessionOptions = {},
): Promise<Outcome> {
  const json: JsonFailure = { json: flags.json === true, formatVersion: PLAN_FORMAT_VERSION };
  const badPaths = await checkReportPaths(io, [
    { flag: "--out", file: flags.out },
    { flag: "--markdown", file: flags.markdown },
  ]);
  if (badPaths.length > 0) return failWith(badPaths, new Map(), io, json);
  const opened = await openSessionWithProgress(flags, io, "plan", options);
  if (!opened.ok) return failWith(opened.diagnostics, new Map(), io, json);
  const { session, progress } = opened;
  try {
    const result = await runPlanPipeline(
      {
        paths,
        targets: flags.target,
        excludes: flags.exclude,
        refresh: flags.refresh === true,
        policy: flags.policy,
        loosenPolicy: flags.loosenPolicy,
        requirePolicy: flags.requirePolicy,
        allowCrossOrganizationKey: flags.allowCrossOrganizationKey,
        forecast: flags.forecast === true,
      },
      session,
      io,
    );
    if (!result.ok) {
      progress.finish();
      return failWith(result.diagnostics, result.sources, io, json);
    }
    if (result.emailLeftOut !== undefined) io.stderr(result.emailLeftOut);
    progress.finish();
    return await printPlan(result, flags, io);
  } finally {
    await session.close();
  }
}

/** Prints the plan (one view for stdout, chosen once), writes the snapshot and the `--out`/`--markdown` files, and gives the outcome. */
async function printPlan(
  result: Extract<PlanPipelineResult, { ok: true }>,
  flags: PlanFlags,
  io: Io,
): Promise<Outcome> {
  const { sources } = result;
  // The commit it is made from (GitHub Actions), which binds a pull request's reviews to it.
  const commit = planCommit(io.env);
  const plan = commit === undefined ? result.plan : { ...result.plan, commit };
  const judgement: Judgement = {
    plan,
    ...(result.forecast === undefined ? {} : { forecast: result.forecast }),
  };
  // One view for stdout, chosen once; the saved plan and the PR comment have their own.
  const viewOptions = {
    color: flags.color && useColor(io, "stdout"),
    sources,
    requestTable: flags.verbose === true,
    ...(flags.galleryUrl === undefined ? {} : { galleryUrl: flags.galleryUrl }),
  };
  io.stdout(planView(flags.json === true ? "json" : "human", viewOptions)(judgement));
  // The names read, for the editor's completion offline (a failure is a warning on stderr).
  printDiagnostics(
    io,
    "stderr",
    await writeSnapshot(
      commonDirectory(
        result.campaign.files.map((f) => f.path),
        io.cwd,
      ),
      snapshotOfLive(result.liveState, "plan", result.readAt),
      io.cwd,
    ),
    sources,
    { verbose: false },
  );
  const written: Diagnostic[] = [];
  if (flags.out !== undefined) {
    const document = planView("json", viewOptions)(judgement);
    const saved = await saveFile(io, flags.out, document, "plan");
    written.push(...saved);
    // The hash of the bytes written (the redacted text, were a secret ever in it).
    if (saved.length === 0) io.stderr(approvalsNote(plan, flags.out, io.redact?.(document) ?? document));
  }
  if (flags.markdown !== undefined)
    written.push(
      ...(await saveFile(
        io,
        flags.markdown,
        planView("markdown", viewOptions)(judgement),
        "Markdown report",
      )),
    );
  if (written.length > 0) return failWith(written, sources, io);
  return planOutcome(plan, flags.detailedExitcode === true);
}

/**
 * The outcome of a plan (design.md "Exit codes of plan"), from the plan's own summary, so it can
 * never disagree with what the views printed. An error is a plan-level error (API, selection) or a
 * project that could not be read; blocked covers blocked actions and items, drift and any other
 * error finding (an unresolved reference, a refused email row, email drift: each needs a person);
 * pending covers planned actions and email lists to sync. A finding that several template instances
 * share is listed once among the plan's and counts as blocked, not as an error of the plan
 * (src/plan/instance-findings.ts). Deferred actions alone, and items skipped for early access, are
 * nothing to do.
 */
export function planOutcome(plan: Plan, detailed: boolean): Outcome {
  const isError = (d: Diagnostic): boolean => d.severity === "error";
  const error =
    plan.diagnostics.some((d) => isError(d) && instancePlaces(d).length === 0) ||
    plan.projects.some((p) => p.live === null && p.diagnostics.some(isError));
  const s = plan.summary;
  const totals = summaryTotals(s);
  const blocked = totals.blocked > 0 || s.drifted > 0 || s.errors > 0;
  if (!detailed) return error || blocked ? failure : success;
  if (error) return failure;
  return { kind: "plan-detailed", pending: totals.toDo > 0, blocked };
}
