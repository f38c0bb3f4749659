/**
 * The judge (design.md principle 11): the one pure function every send rests on. Files, the policy
 * in force, live reads, the clock, the capacity in force and what the brand already sends live in;
 * the plan with its verdicts (planned, blocked, deferred) and, when forecasting, its typed forecast
 * out. `plan` shows it, `apply` re-runs it before every send (`rejudge`), a saved plan is checked
 * against it, the gallery and `watch` read what it returned. No IO, no clock of its own: the caller
 * (cli/gather/plan-pipeline.ts) gathers every input.
 */
import type { Campaign, ProjectSpec } from "../campaign/model.js";
import type { Project } from "../contract/resources.js";
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import { forecastJson } from "../forecast/json.js";
import { judgeFindings } from "../forecast/policy-hold.js";
import type { Forecast } from "../forecast/types.js";
import { sendPlaces } from "../jurisdictions/index.js";
import type { Policy } from "../policy/model.js";
import { listPlaces, rulesInForce, type SendFacts } from "../policy/window-rules.js";
import { assemblePlan, respread } from "./assemble.js";
import { type BudgetSpend, withBudgets } from "./budget-hold.js";
import { buildCatalogs } from "./catalogs.js";
import { type EmailReads, judgeEmail } from "./email-items.js";
import { holdForExperiments } from "./experiment-hold.js";
import { withForecastFindings } from "./forecast-hold.js";
import { type ForecastCapacity, forecastOfPlan } from "./forecast-of-plan.js";
import { liftInstanceFindings } from "./instance-findings.js";
import type { LiveRead, LiveState } from "./live.js";
import type { LiveSends } from "./live-sends.js";
import { organizationSections } from "./organizations.js";
import { holdForPolicy } from "./policy-hold.js";
import { replyRuleSets } from "./reply-items.js";
import { sendFactsOf } from "./send-facts.js";
import { summarize } from "./summary.js";
import type { Plan, PlanFile, RequestCount } from "./types.js";
import { withWindowRules } from "./window-hold.js";

/** Everything the judgement rests on. Nothing else is read: the same input gives the same plan. */
export interface JudgeInput {
  /** The campaign files, loaded and checked (lint errors stop a run before it is judged). */
  readonly campaign: Campaign;
  /** The policy in force; null when no policy file applies. */
  readonly policy: Policy | null;
  /** The live reads (already fetched): references, project reads by id. */
  readonly live: LiveState;
  /** The clock: the API's time when the live state was read. */
  readonly now: Date;
  /** `--target` / `--exclude`, as given. */
  readonly targets: readonly string[];
  readonly excludes: readonly string[];
  /**
   * Forecast the plan (`--forecast`). A policy with `forecast_errors` forecasts whatever this says,
   * so that no flag leaves its errors unjudged.
   */
  readonly forecast: boolean;
  /** The capacity the forecast runs under (the policy's, tightened by the files). */
  readonly capacity: ForecastCapacity;
  /** What the brand already sends live (read only when forecasting; else NO_LIVE_SENDS). */
  readonly liveSends: LiveSends;
  /** The API the plan is for (its base URL or the embedded sandbox's identity) and the tool's version. */
  readonly baseUrl: string;
  readonly toolVersion: string;
  /** The key's root organization: idempotency keys are scoped to it. */
  readonly organizationId: string;
  /** `--allow-cross-organization-key`. */
  readonly allowCrossOrganizationKey: boolean;
  /** The requests the reads took, as the plan reports them. */
  readonly requests: RequestCount;
  /**
   * The email reads of the lists and campaigns the run covers (each CSV's tally and sha256, GET
   * /email/campaigns, the sending domains); absent when the run reads no email.
   */
  readonly email?: EmailReads;
  /**
   * What each of the policy's `budgets` has spent in its period (src/plan/budget-hold.ts), read with
   * each organization's key; absent without budgets (or not read: then every covered send is held).
   */
  readonly budgetSpend?: BudgetSpend;
  /** The policy files in force, with the sha256 of their bytes as read (plan `files`, kind `policy`). */
  readonly policyFiles?: readonly PlanFile[];
  /**
   * What gathering the input said (files' warnings, the policy's, the clock's skew, the refresh's
   * and the live sends' reads): the plan's diagnostics, before its own.
   */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * The judgement. Invariants: `plan.forecast` is `forecastJson(forecast)` and both are present
 * exactly when the run forecasts; an error finding of the forecast holds its project in `plan`;
 * `plan.summary` counts every diagnostic of the plan.
 */
export interface Judgement {
  readonly plan: Plan;
  readonly forecast?: Forecast;
}

/**
 * Whether the input is forecast: `--forecast`, or a policy whose `forecast_errors` or
 * `jurisdictions` (judged over each whole send) must be judged.
 */
export function forecasts(input: Pick<JudgeInput, "forecast" | "policy">): boolean {
  const rules = input.policy?.rules;
  return input.forecast || rules?.forecast_errors !== undefined || rules?.jurisdictions !== undefined;
}

export function judge(input: JudgeInput): Judgement {
  const scoped = judgeScoped(input, input.live.projects, input.now, input.targets, input.excludes);
  const judged = { ...scoped, plan: liftInstanceFindings(scoped.plan) };
  const diagnostics = [...input.diagnostics, ...judged.plan.diagnostics];
  const organizations = organizationSections(
    judged.plan.projects,
    input.campaign.projects,
    input.live.organizations,
  );
  // Every item of the run, beside the projects' actions: email lists and campaigns, reply rules.
  const email = judgeEmail(input.campaign, input.email, input.targets, input.excludes);
  const covered = new Set(judged.plan.projects.map((p) => p.address));
  const replies = replyRuleSets(input.campaign.projects.filter((p) => covered.has(p.address)));
  const items = { ...(email === undefined ? {} : { email }), ...(replies.length === 0 ? {} : { replies }) };
  return {
    plan: {
      ...judged.plan,
      files: planFiles(judged.plan.files, input.policyFiles ?? [], email?.lists ?? []),
      ...(judged.forecast === undefined ? {} : { forecast: forecastJson(judged.forecast) }),
      organization_id: input.organizationId,
      ...(organizations.length >= 2 ? { organizations } : {}),
      ...items,
      diagnostics,
      summary: summarize(judged.plan.projects, diagnostics, items),
    },
    ...(judged.forecast === undefined ? {} : { forecast: judged.forecast }),
  };
}

/**
 * The judgement of fixed files, policy, capacity and live sends against project reads at `now`
 * (apply's `Judge`). `only`: just these addresses and what they are ordered after.
 */
export type Rejudge = (
  projects: ReadonlyMap<string, LiveRead<Project>>,
  now: Date,
  only?: readonly string[],
) => Plan;

/**
 * The same judgement against other project reads at another instant, as apply's loop needs it: the
 * files, policy, capacity and live sends of `input`, with `projects` and `now` in place of its own.
 * `only`: judge just these addresses (and what they are ordered after), for the re-check right
 * before a send; the forecast still covers every project of the files, so that a project judged
 * alone cannot escape its brand's cap.
 */
export function rejudge(input: JudgeInput): Rejudge {
  return (projects, now, only) =>
    liftInstanceFindings(judgeScoped(input, projects, now, only ?? input.targets, input.excludes).plan);
}

function judgeScoped(
  input: JudgeInput,
  projects: ReadonlyMap<string, LiveRead<Project>>,
  now: Date,
  targets: readonly string[],
  excludes: readonly string[],
): Judgement {
  const judged = judgeSends(input, projects, now, targets, excludes);
  if ((input.policy?.rules.budgets ?? []).length === 0) return judged;
  // Budgets are judged over every send of the files together, in order (budget-hold.ts).
  const whole =
    targets.length === 0 && excludes.length === 0
      ? judged.plan
      : judgeSends(input, projects, now, [], []).plan;
  const { plan, figures } = withBudgets(
    judged.plan,
    whole,
    input.policy,
    input.budgetSpend,
    input.campaign.projects,
    projects,
    now,
  );
  return { ...judged, plan: { ...plan, budgets: figures } };
}

function judgeSends(
  input: JudgeInput,
  projects: ReadonlyMap<string, LiveRead<Project>>,
  now: Date,
  targets: readonly string[],
  excludes: readonly string[],
): Judgement {
  // An experiment's holdout waits for its verdict (experiment-hold.ts), in every judgement.
  const assembleFor = (t: readonly string[], e: readonly string[], windowsLater: boolean): Plan =>
    holdForExperiments(assembleOnly(t, e, windowsLater), input.campaign, { ...input.live, projects });
  const assembleOnly = (t: readonly string[], e: readonly string[], windowsLater: boolean): Plan =>
    assemblePlan({
      campaign: input.campaign,
      live: { ...input.live, projects },
      now,
      baseUrl: input.baseUrl,
      toolVersion: input.toolVersion,
      organizationId: input.organizationId,
      allowCrossOrganizationKey: input.allowCrossOrganizationKey,
      targets: t,
      excludes: e,
      requests: input.requests,
      ...(input.policy === null ? {} : { policy: input.policy }),
      windowsLater,
    });
  const forecasting = forecasts(input);
  const plan = assembleFor(targets, excludes, forecasting);
  if (!forecasting) return { plan };
  const rules = input.policy?.rules;
  const catalogs = buildCatalogs({ ...input.live, projects });
  const factsOf = (spec: ProjectSpec, project: { readonly project_id: string }): SendFacts => {
    const read = projects.get(project.project_id);
    return sendFactsOf(spec, read?.kind === "found" ? read.value : null, catalogs);
  };
  // Projects of a brand share its cap: the forecast always covers every project of the files.
  const whole = targets.length === 0 && excludes.length === 0 ? plan : assembleFor([], [], true);
  const forecastRule =
    rules?.forecast_errors === undefined
      ? undefined
      : {
          names: rules.forecast_errors,
          ...(input.policy?.ranges.forecast_errors === undefined
            ? {}
            : { range: input.policy.ranges.forecast_errors }),
        };
  const forecast = judgeFindings(
    forecastOfPlan(whole, input.campaign.projects, {
      capacity: input.capacity,
      ...(forecastRule === undefined ? {} : { capacityRequired: forecastRule }),
      liveSends: input.liveSends,
      brandNames: liveBrandNames(input.live),
      projects,
      bypassForbidden: rules?.daily_cap_bypass === "forbid",
      ...(rules?.send_window === undefined ? {} : { sendWindow: rules.send_window }),
      stateRules: rulesInForce(input.policy),
      recipientsOf: (spec, project) =>
        (input.policy?.places ?? []).length === 0 || spec.schedule === undefined
          ? undefined
          : sendPlaces(listPlaces(input.policy, factsOf(spec, project)), spec.schedule.timezone),
    }),
    forecastRule,
  );
  const findings = withForecastFindings(plan, forecast);
  const judged =
    input.policy === null
      ? findings
      : withWindowRules(findings, forecast, input.policy, input.campaign.projects, factsOf, now);
  if (rules?.forecast_errors === undefined || input.liveSends.complete) return { plan: judged, forecast };
  const ranges = new Map(input.campaign.projects.map((spec) => [spec.address, spec.range]));
  return { plan: holdUnseen(judged, forecast, ranges, input.policy?.ranges.forecast_errors), forecast };
}

/**
 * Every input of the plan with its digest: the campaign files, the policy files, then each email
 * list's CSV read (one entry per path, the first kept).
 */
function planFiles(
  campaign: readonly PlanFile[],
  policy: readonly PlanFile[],
  lists: readonly { readonly csv: string; readonly sha256: string | null }[],
): PlanFile[] {
  const csv = lists.flatMap((l) =>
    l.sha256 === null ? [] : [{ path: l.csv, sha256: l.sha256, kind: "csv" as const }],
  );
  const seen = new Set<string>();
  const out: PlanFile[] = [];
  for (const f of [...campaign, ...policy, ...csv]) {
    if (seen.has(f.path)) continue;
    seen.add(f.path);
    out.push(f);
  }
  return out;
}

/** The live brands' names by id, from the references read (brands have no endpoint of their own). */
function liveBrandNames(live: LiveState): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  for (const r of [...live.tenDlcCampaigns, ...live.contactLists, ...live.phoneNumbers])
    if (r.brand_id !== null && r.brand_id !== "" && r.brand_name !== null && !names.has(r.brand_id))
      names.set(r.brand_id, r.brand_name);
  return names;
}

/**
 * Under `forecast_errors`, with the brand's live sends not all read: every project the forecast
 * covers is held with an error (`forecast.sent-unknown`), since a send it cannot see may put it past
 * its brand's cap. Pauses go ahead (policy-hold.ts).
 */
function holdUnseen(
  plan: Plan,
  forecast: Forecast,
  ranges: ReadonlyMap<string, SourceRange>,
  rule: SourceRange | undefined,
): Plan {
  const covered = new Set(forecast.projects.map((p) => p.address));
  const projects = plan.projects.map((project) => {
    const range = ranges.get(project.address);
    return covered.has(project.address)
      ? holdForPolicy(project, [
          {
            severity: "error",
            code: "forecast.sent-unknown",
            message: `${project.address}: the brand's live sends could not all be read, so the policy's forecast_errors cannot be judged for it; its test and schedule are held`,
            ...(range === undefined ? {} : { range }),
            hint: "plan again once the statistics and project reads succeed (see the warning forecast.sent-unknown)",
            ...(rule === undefined
              ? {}
              : { related: [{ message: "the policy's rule forecast_errors", range: rule }] }),
          },
        ])
      : project;
  });
  const held = respread(projects);
  return { ...plan, projects: held, summary: summarize(held, plan.diagnostics) };
}
