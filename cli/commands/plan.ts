/**
 * `campaignctl plan [paths...]`: runs the plan pipeline against the live API (or the embedded
 * sandbox), prints the plan, and saves the `--out`/`--markdown` files. Registered in `../register/plan.ts`.
 */

import { instancePlaces } from "../../src/campaign/template-findings.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { type EmailPlan, emailPlanBlocked } from "../../src/email/email-plan.js";
import { sessionRequests } from "../../src/plan/refresh-requests.js";
import { PLAN_FORMAT_VERSION, type Plan } from "../../src/plan/types.js";
import { renderEmailPlanHuman } from "../../src/report/email-human.js";
import { renderEmailPlanMarkdown } from "../../src/report/email-markdown.js";
import { forecastMarkdown } from "../../src/report/forecast-markdown.js";
import { forecastText } from "../../src/report/forecast-text.js";
import { renderPlanHuman } from "../../src/report/plan-human.js";
import { renderPlanJson } from "../../src/report/plan-json.js";
import { renderPlanMarkdown } from "../../src/report/plan-markdown.js";
import { emailLeftOutNote, planEmail } from "../email/plan-email.js";
import { failWith, type JsonFailure } from "../fail.js";
import { saveFile } from "../files.js";
import { type Io, useColor } from "../io.js";
import type { KeyScopeFlags } from "../key-scope-flag.js";
import { failure, type Outcome, success } from "../outcome.js";
import { runPlanPipeline } from "../plan-pipeline.js";
import type { PolicyFlags } from "../policy-file.js";
import { printDiagnostics } from "../print-diagnostics.js";
import { checkReportPaths } from "../report-paths.js";
import type { SessionOptions } from "../session.js";
import { openSessionWithProgress } from "../session-progress.js";
import { commonDirectory, snapshotOfLive, writeSnapshot } from "../snapshot-file.js";

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
    const { sources, forecast: forecasted } = result;
    // Email (docs/email.md): absent when the files describe none.
    const selectors = { targets: flags.target, excludes: flags.exclude };
    const narrowed = emailLeftOutNote(result.campaign.files, selectors);
    if (narrowed !== undefined) io.stderr(narrowed);
    const email = await planEmail(
      result.campaign.files,
      result.plan.policy?.rules.require_email_consent === true,
      session.client,
      io.cwd,
      selectors,
    );
    progress.finish();
    // Every request of the run counts, whatever made it (key checks, email reads, live sends).
    const plan = {
      ...result.plan,
      requests: sessionRequests(session.client.stats(), result.plan.requests.naive),
    };
    if (flags.json === true) io.stdout(renderPlanJson(plan, email?.plan));
    else {
      io.stdout(
        renderPlanHuman(plan, {
          color: flags.color && useColor(io, "stdout"),
          sources,
          requestTable: flags.verbose === true,
        }),
      );
      if (forecasted !== undefined) io.stdout(`\n${forecastText(forecasted)}`);
      if (email !== undefined)
        io.stdout(
          `\n${renderEmailPlanHuman(email.plan, { color: flags.color && useColor(io, "stdout"), sources })}`,
        );
    }
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
    if (flags.out !== undefined)
      written.push(...(await saveFile(io, flags.out, renderPlanJson(plan, email?.plan), "plan")));
    if (flags.markdown !== undefined) {
      const gallery = flags.galleryUrl !== undefined ? { galleryUrl: flags.galleryUrl } : {};
      const markdown =
        (forecasted === undefined
          ? renderPlanMarkdown(plan, gallery)
          : `${renderPlanMarkdown(plan, gallery)}\n${forecastMarkdown(forecasted)}`) +
        (email === undefined ? "" : `\n${renderEmailPlanMarkdown(email.plan)}`);
      written.push(...(await saveFile(io, flags.markdown, markdown, "Markdown report")));
    }
    if (written.length > 0) return failWith(written, sources, io);
    return planOutcome(plan, flags.detailedExitcode === true, email?.plan);
  } finally {
    await session.close();
  }
}

/**
 * The outcome of a plan (design.md "Exit codes of plan"). An error is a plan-level error (API,
 * selection) or a project that could not be read; blocked covers blocked actions, drift and any
 * other error of a project (an unresolved reference needs a person just the same), also one that
 * several template instances share, listed once among the plan's (src/plan/instance-findings.ts).
 * Deferred actions alone are nothing to do.
 */
export function planOutcome(plan: Plan, detailed: boolean, email?: EmailPlan): Outcome {
  const isError = (d: Diagnostic): boolean => d.severity === "error";
  const error =
    plan.diagnostics.some((d) => isError(d) && instancePlaces(d).length === 0) ||
    plan.projects.some((p) => p.live === null && p.diagnostics.some(isError));
  const s = plan.summary;
  // Email: refused rows, drift and blockers need a person as a blocked project does; items skipped
  // for early access do not (docs/email.md "Exit codes"). Rows to sync are pending work.
  const blocked =
    s.blocked > 0 || s.drifted > 0 || s.errors > 0 || (email !== undefined && emailPlanBlocked(email));
  const emailPending = email?.lists.some((l) => l.state === "sync") === true;
  if (!detailed) return error || blocked ? failure : success;
  if (error) return failure;
  return { kind: "plan-detailed", pending: s.planned > 0 || emailPending, blocked };
}
