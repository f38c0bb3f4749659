/**
 * Files to plan, shared by `plan` and `apply`: load and validate the campaign files, lint them,
 * check `--target`/`--exclude` (any error so far stops before the first request), refresh the live
 * state of the covered projects through the session (with the disk cache), and assemble the plan.
 * The plan's diagnostics gather the files' warnings, the refresh's warnings (cache, stats fallback)
 * and the selection's, so a saved plan tells the whole story.
 */

import type { Judge } from "../src/apply/index.js";
import { loadCampaign } from "../src/campaign/load.js";
import type { Campaign } from "../src/campaign/model.js";
import type { Project } from "../src/contract/resources.js";
import { type Diagnostic, hasErrors } from "../src/diagnostics/diagnostic.js";
import { forecastOfPlan } from "../src/forecast/of-plan.js";
import { judgeFindings, withForecastFindings } from "../src/forecast/policy-hold.js";
import type { Forecast } from "../src/forecast/types.js";
import { assemblePlan } from "../src/plan/assemble.js";
import type { CacheStore } from "../src/plan/cache.js";
import { checkCovered } from "../src/plan/check-covered.js";
import { clockSkewDiagnostic } from "../src/plan/clock-skew.js";
import type { LiveRead, LiveState } from "../src/plan/live.js";
import { refreshLive } from "../src/plan/refresh.js";
import { summarize } from "../src/plan/summary.js";
import type { Plan } from "../src/plan/types.js";
import { capacityLoosened } from "../src/policy/capacity.js";
import { forecastJson } from "../src/report/forecast-json.js";
import { createFileCache } from "./file-cache.js";
import { readSent } from "./forecast-sent.js";
import type { Io } from "./io.js";
import type { KeyScopeFlags } from "./key-scope-flag.js";
import { loadPolicy, type PolicyFlags } from "./policy-file.js";
import type { Session } from "./session.js";
import { VERSION } from "./version.js";

export interface PlanPipelineArgs extends PolicyFlags, KeyScopeFlags {
  /** Campaign files or directories, relative to `io.cwd`. */
  readonly paths: readonly string[];
  /** `--target` addresses, as given. */
  readonly targets: readonly string[];
  /** `--exclude` addresses, as given. */
  readonly excludes: readonly string[];
  /** `--refresh`: do not read the cache (it is still written). */
  readonly refresh: boolean;
  /** Default: the disk cache under `io.cwd` for the session's API. */
  readonly cache?: CacheStore;
  /**
   * `--forecast`: forecast the plan (docs/forecast.md). A policy with `forecast_errors` forecasts
   * whatever this says, so that no flag leaves its errors unjudged.
   */
  readonly forecast?: boolean;
}

/**
 * `sources` maps each loaded file (path as shown in diagnostics) to its text, for source excerpts.
 * On success `organizationId` is the organization the plan's idempotency keys are scoped to.
 * Invariant: on failure `diagnostics` holds at least one error (files, selection or API).
 */
export type PlanPipelineResult =
  | {
      readonly ok: true;
      readonly campaign: Campaign;
      readonly plan: Plan;
      readonly organizationId: string;
      readonly sources: ReadonlyMap<string, string>;
      /** The project reads the plan was judged from (some may come from the cache), by id. */
      readonly live: ReadonlyMap<string, LiveRead<Project>>;
      /** Judges the same files against other project reads, exactly as this plan was (apply's loop). */
      readonly judge: Judge;
      /**
       * The forecast the plan's findings come from (with `forecast` or a policy's `forecast_errors`);
       * the plan then carries it as `forecast` (its JSON form) and its findings as diagnostics.
       */
      readonly forecast?: Forecast;
    }
  | {
      readonly ok: false;
      readonly diagnostics: readonly Diagnostic[];
      readonly sources: ReadonlyMap<string, string>;
    };

/**
 * Runs the pipeline. The plan's clock is the API's: by default `session.now()`, read after the first
 * response (its `Date` header), so past schedules, stats windows and `at: now` are judged by the time
 * the API lives in; a plan whose API clock is off this machine's by over a minute carries
 * `plan.clock-skew`. Tests may pass a fixed `now`. The files' lint runs without a clock: a past
 * schedule is the planner's to judge (`plan.schedule-in-past`), and only where one would be sent.
 */
export async function runPlanPipeline(
  args: PlanPipelineArgs,
  session: Session,
  io: Io,
  now: Date | (() => Date) = () => session.now(),
): Promise<PlanPipelineResult> {
  const loaded = loadCampaign(args.paths, io.cwd);
  const campaign = loaded.campaign;
  const sources = new Map(campaign.files.map((f) => [f.path, f.text]));
  // The policy is found from the files read (a saved plan's named files lead to the same one), and
  // read before any request: a broken or ambiguous policy stops the run like a broken campaign file.
  const policy = loadPolicy(
    args,
    campaign.files.map((f) => f.path),
    io.cwd,
  );
  if (!policy.ok) return { ok: false, diagnostics: policy.diagnostics, sources };
  for (const [file, text] of policy.texts) sources.set(file, text);
  // Lints only the covered projects: another project's lint error does not stop a targeted plan.
  const checked = checkCovered(loaded, args.targets, args.excludes, { now: null });
  // Capacity belongs to the policy: a file that loosens it is wrong before any request is made.
  const fileDiagnostics = [
    ...checked.diagnostics,
    ...capacityLoosened(
      policy.policy,
      campaign.projects.map((p) => p.capacity),
    ),
  ];
  if (hasErrors(fileDiagnostics)) return { ok: false, diagnostics: fileDiagnostics, sources };
  const selection = checked.selection;
  if (hasErrors(selection.diagnostics))
    return { ok: false, diagnostics: [...fileDiagnostics, ...selection.diagnostics], sources };

  const rules = policy.policy?.rules;
  const forecasting = args.forecast === true || rules?.forecast_errors !== undefined;
  // A forecast reads every project of the files: projects of a brand share its cap, so a project
  // left out by --target or --exclude still counts against it.
  const refreshed = await refreshLive({
    campaign: forecasting ? campaign : checked.covered,
    reader: session.client,
    cache: args.cache ?? createFileCache(io.cwd, session.apiId),
    now,
    refresh: args.refresh,
    keySource: session.keySource,
  });
  const reading = session.clockReading();
  const skew = reading === null ? undefined : clockSkewDiagnostic(reading.api, reading.local);
  const clockDiagnostics = skew === undefined ? [] : [skew];
  if (!refreshed.ok)
    return {
      ok: false,
      diagnostics: [...fileDiagnostics, ...clockDiagnostics, ...refreshed.diagnostics],
      sources,
    };

  const assembleAt = (
    projects: LiveState["projects"],
    at: Date,
    targets: readonly string[] = args.targets,
    excludes: readonly string[] = args.excludes,
  ): Plan =>
    assemblePlan({
      campaign,
      live: { ...refreshed.live, projects },
      now: at,
      baseUrl: session.apiId,
      toolVersion: VERSION,
      organizationId: refreshed.organizationId,
      allowCrossOrganizationKey: args.allowCrossOrganizationKey === true,
      targets,
      excludes,
      requests: refreshed.requests,
      ...(policy.policy === null ? {} : { policy: policy.policy }),
    });
  const forecastRule =
    rules?.forecast_errors === undefined
      ? undefined
      : {
          names: rules.forecast_errors,
          ...(policy.policy?.ranges.forecast_errors === undefined
            ? {}
            : { range: policy.policy.ranges.forecast_errors }),
        };
  // The forecast always covers every project of the files, also when the run is narrowed or apply
  // re-judges one project at send time: projects of a brand share its cap, so one judged alone
  // could escape its finding.
  const whole = args.targets.length === 0 && args.excludes.length === 0;
  const bypassForbidden = rules?.daily_cap_bypass === "forbid";
  const sending = forecasting ? await readSent(session, refreshed.live.projects, refreshed.now) : undefined;
  const sent = sending?.sent;
  const forecastOf = (plan: Plan): Forecast =>
    forecastOfPlan(plan, campaign.projects, rules?.send_window, {
      bypassForbidden,
      sent,
      ...(policy.policy === null ? {} : { policyCapacity: policy.policy.capacity }),
      ...(forecastRule === undefined ? {} : { capacityRequired: forecastRule }),
    });
  const judged = (
    projects: LiveState["projects"],
    at: Date,
    only?: readonly string[],
  ): { readonly plan: Plan; readonly forecast?: Forecast } => {
    const plan = assembleAt(projects, at, only);
    if (!forecasting) return { plan };
    const forecast = judgeFindings(
      forecastOf(only === undefined && whole ? plan : assembleAt(projects, at, [], [])),
      forecastRule,
    );
    return { plan: withForecastFindings(plan, forecast), forecast };
  };
  const judgeAt: Judge = (projects, at, only) => judged(projects, at, only).plan;
  const { plan: assembled, forecast } = judged(refreshed.live.projects, refreshed.now);
  // The files' info notes (segment growth) are `validate`'s to show; the plan has its own estimate.
  const fileProblems = fileDiagnostics.filter((d) => d.severity !== "info");
  const diagnostics = [
    ...fileProblems,
    ...(sending?.diagnostics ?? []),
    ...policy.diagnostics,
    ...clockDiagnostics,
    ...refreshed.diagnostics,
    ...assembled.diagnostics,
  ];
  const plan: Plan = {
    ...assembled,
    ...(forecast === undefined ? {} : { forecast: forecastJson(forecast) }),
    organization_id: refreshed.organizationId,
    diagnostics,
    summary: summarize(assembled.projects, diagnostics),
  };
  return {
    ok: true,
    campaign,
    plan,
    organizationId: refreshed.organizationId,
    sources,
    live: refreshed.live.projects,
    judge: judgeAt,
    ...(forecast === undefined ? {} : { forecast }),
  };
}
