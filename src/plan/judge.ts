/**
 * The judge (design.md principle 11): the one pure function every send rests on. Files, the policy
 * in force, live reads, the clock, the capacity in force and what the brand already sends live in;
 * the plan with its verdicts (planned, blocked, deferred) and, when forecasting, its typed forecast
 * out. `plan` shows it, `apply` re-runs it every round (`rejudge`) and judges each schedule's
 * project alone against that round's context right before sending it (project-judgement.ts: the
 * same per-project judgement), a saved plan is checked against it, the gallery and `watch` read what it returned. No IO, no clock of its own: the caller
 * (cli/gather/plan-pipeline.ts) gathers every input.
 */

import type { Campaign, ProjectSpec } from "../campaign/model.js";
import type { Project } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { forecastJson } from "../forecast/json.js";
import { judgeFindings } from "../forecast/policy-hold.js";
import type { Forecast } from "../forecast/types.js";
import { sendPlaces } from "../jurisdictions/index.js";
import type { Policy } from "../policy/model.js";
import { listPlaces, rulesInForce, type SendFacts } from "../policy/window-rules.js";
import { type AssembleInput, assembleOwn, planOf, respread } from "./assemble.js";
import { type BudgetSpend, budgetLedgers } from "./budget-hold.js";
import { buildCatalogs, type Catalogs } from "./catalogs.js";
import { type EmailReads, judgeEmail } from "./email-items.js";
import { holdoutsOf } from "./experiment-hold.js";
import { findingsByAddress, forecastPlanDiagnostics } from "./forecast-hold.js";
import { type ForecastCapacity, forecastOfPlan } from "./forecast-of-plan.js";
import { onCycles } from "./graph.js";
import { liftInstanceFindings } from "./instance-findings.js";
import type { LiveRead, LiveState } from "./live.js";
import type { LiveSends } from "./live-sends.js";
import { organizationSections } from "./organizations.js";
import { policyOrganizationFindings } from "./policy-organizations.js";
import { type ForecastRules, judgeProject, judgeRules, type PlanContext } from "./project-judgement.js";
import { replyRuleSets } from "./reply-items.js";
import { sendFactsOf } from "./send-facts.js";
import { summarize } from "./summary.js";
import type { Plan, PlanFile, ProjectPlan, RequestCount } from "./types.js";
import { coursesOf } from "./window-hold.js";

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
  const diagnostics = [
    ...input.diagnostics,
    ...policyOrganizationFindings(input.policy, input.live.organizations),
    ...judged.plan.diagnostics,
  ];
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
 * One judgement of apply's loop: the plan, and each of its projects judged again alone on another
 * clock against the plan's context (`project`, project-judgement.ts), for the re-check right before
 * a send: at the plan's own instant it is the plan's project exactly.
 */
export interface Judged {
  readonly plan: Plan;
  readonly project: (address: string, now: Date) => ProjectPlan | undefined;
}

/** The judgement of fixed files, policy, capacity and live sends against project reads at `now` (apply's `Judge`). */
export type Rejudge = (projects: ReadonlyMap<string, LiveRead<Project>>, now: Date) => Judged;

/**
 * The same judgement against other project reads at another instant, as apply's loop needs it: the
 * files, policy, capacity and live sends of `input`, with `projects` and `now` in place of its own.
 */
export function rejudge(input: JudgeInput): Rejudge {
  return (projects, now) => {
    const { plan, context } = judgeScoped(input, projects, now, input.targets, input.excludes);
    return { plan: liftInstanceFindings(plan), project: (address, at) => judgeProject(context, address, at) };
  };
}

/** The judgement with its context (project-judgement.ts), of the projects `targets`/`excludes` cover. */
export function judgeScoped(
  input: JudgeInput,
  projects: ReadonlyMap<string, LiveRead<Project>>,
  now: Date,
  targets: readonly string[],
  excludes: readonly string[],
): Judgement & { readonly context: PlanContext } {
  const forecasting = forecasts(input);
  const live = { ...input.live, projects };
  const catalogs = buildCatalogs(live);
  const assembleInput = (t: readonly string[], e: readonly string[]): AssembleInput => ({
    campaign: input.campaign,
    live,
    now,
    baseUrl: input.baseUrl,
    toolVersion: input.toolVersion,
    organizationId: input.organizationId,
    allowCrossOrganizationKey: input.allowCrossOrganizationKey,
    targets: t,
    excludes: e,
    requests: input.requests,
    ...(input.policy === null ? {} : { policy: input.policy }),
    windowsLater: forecasting,
  });
  const covered = assembleOwn(assembleInput(targets, excludes), catalogs);
  const budgets = input.policy?.rules.budgets ?? [];
  // The forecast (brands' caps) and the budgets are judged over every send of the files together.
  const whole =
    (targets.length === 0 && excludes.length === 0) || (!forecasting && budgets.length === 0)
      ? covered
      : assembleOwn(assembleInput([], []), catalogs);
  const specs = new Map(input.campaign.projects.map((p) => [p.address, p]));
  const excluded = covered.selection.excludedDependencies;
  const base: PlanContext = {
    campaign: input.campaign,
    policy: input.policy,
    own: covered.context,
    specs,
    excludedDependencies: new Map(covered.projects.map((p) => [p.address, excluded.get(p.address) ?? []])),
    dependencies: covered.dependencies,
    holdouts: holdoutsOf(input.campaign, live),
    budgets: [],
    settled: new Map(),
    cyclic: new Set(),
  };
  const forecast = forecasting
    ? forecastOf(input, planOf(assembleInput([], []), whole.projects, []), catalogs, projects)
    : undefined;
  const forecastRules = forecast === undefined ? {} : { forecast: rulesOf(input, forecast) };
  const ruled = (context: PlanContext, own: readonly ProjectPlan[]): ProjectPlan[] =>
    own.map((p) => judgeRules(context, p, specs.get(p.address) as ProjectSpec, now));
  const ledgers =
    budgets.length === 0
      ? []
      : budgetLedgers(
          respread(ruled({ ...base, ...forecastRules, dependencies: whole.dependencies }, whole.projects)),
          input.policy,
          input.budgetSpend,
          projects,
          now,
        );
  const context: PlanContext = { ...base, ...forecastRules, budgets: ledgers };
  const judged = ruled(context, covered.projects);
  const settled = respread(judged);
  const diagnostics = [
    ...covered.selection.diagnostics,
    ...(forecast === undefined ? [] : forecastPlanDiagnostics(forecast)),
  ];
  const plan = planOf(assembleInput(targets, excludes), settled, diagnostics);
  return {
    plan: budgets.length === 0 ? plan : { ...plan, budgets: ledgers.map((l) => l.figures) },
    ...(forecast === undefined ? {} : { forecast }),
    context: {
      ...context,
      settled: new Map(settled.flatMap((p) => p.actions).map((a) => [a.id, a])),
      cyclic: onCycles(judged.flatMap((p) => p.actions)),
    },
  };
}

/** What the forecast says of each project, for `judgeRules`. */
function rulesOf(input: JudgeInput, forecast: Forecast): ForecastRules {
  const rules = input.policy?.rules;
  const rule = input.policy?.ranges.forecast_errors;
  return {
    findings: findingsByAddress(forecast),
    courses: coursesOf(forecast),
    unseen:
      rules?.forecast_errors === undefined || input.liveSends.complete
        ? null
        : rule === undefined
          ? {}
          : { rule },
  };
}

/** The forecast of every send of the files (`whole`), its findings judged by the policy. */
function forecastOf(
  input: JudgeInput,
  whole: Plan,
  catalogs: Catalogs,
  projects: ReadonlyMap<string, LiveRead<Project>>,
): Forecast {
  const rules = input.policy?.rules;
  const factsOf = (spec: ProjectSpec, project: { readonly project_id: string }): SendFacts => {
    const read = projects.get(project.project_id);
    return sendFactsOf(spec, read?.kind === "found" ? read.value : null, catalogs);
  };
  const forecastRule =
    rules?.forecast_errors === undefined
      ? undefined
      : {
          names: rules.forecast_errors,
          ...(input.policy?.ranges.forecast_errors === undefined
            ? {}
            : { range: input.policy.ranges.forecast_errors }),
        };
  return judgeFindings(
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
