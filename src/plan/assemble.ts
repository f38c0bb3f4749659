/**
 * The planner's entry point: a pure function of (campaign, live state, clock) to a `Plan`. It
 * narrows the campaign to `--target`/`--exclude`, plans each covered project, orders the actions
 * by `after`, spreads blocked and deferred statuses along that order, and counts the result.
 */
import type { Campaign, ProjectSpec } from "../campaign/model.js";
import { relateToOrigin } from "../campaign/template-origin.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Policy } from "../policy/model.js";
import { policyViolations } from "../policy/rules.js";
import { buildCatalogs, type Catalogs } from "./catalogs.js";
import { afterDependencies, propagate } from "./graph.js";
import type { LiveState } from "./live.js";
import { holdForPolicy } from "./policy-hold.js";
import { type ProjectPlanContext, planProject } from "./project-plan.js";
import { type Selection, selectProjects } from "./select.js";
import { sendFactsOf, withPlaces } from "./send-facts.js";
import { summarize } from "./summary.js";
import { totalSends } from "./totals.js";
import { type Action, PLAN_FORMAT_VERSION, type Plan, type ProjectPlan, type RequestCount } from "./types.js";

export interface AssembleInput {
  readonly campaign: Campaign;
  readonly live: LiveState;
  /** The time the live state was read; the plan's only clock. */
  readonly now: Date;
  readonly baseUrl: string;
  readonly toolVersion: string;
  /** The organization of the API key (its root organization). */
  readonly organizationId: string;
  /** `--allow-cross-organization-key` (see ProjectPlanContext). */
  readonly allowCrossOrganizationKey?: boolean;
  readonly targets: readonly string[];
  readonly excludes: readonly string[];
  readonly requests: RequestCount;
  /**
   * The organization's policy, if any: a project violating it has its test and schedule actions
   * blocked (before `after` ordering spreads the block to its dependants); pauses are never held.
   */
  readonly policy?: Policy;
  /**
   * The policy's `send_window` and `jurisdictions` are judged after the forecast, over each whole
   * send (the judge forecasts: src/plan/window-hold.ts); default: at each send's start, here.
   */
  readonly windowsLater?: boolean;
}

export function assemblePlan(input: AssembleInput): Plan {
  const own = assembleOwn(input);
  const projects = own.projects.map((p) => withAfter(p, own.dependencies.get(p.address) ?? []));
  return planOf(input, respread(projects), own.selection.diagnostics);
}

/** The plan document around judged `projects` (counted), for `input`. */
export function planOf(
  input: Omit<AssembleInput, "live" | "windowsLater">,
  projects: readonly ProjectPlan[],
  diagnostics: readonly Diagnostic[],
): Plan {
  return {
    format_version: PLAN_FORMAT_VERSION,
    tool_version: input.toolVersion,
    created_at: input.now.toISOString(),
    base_url: input.baseUrl,
    files: input.campaign.files.map((f) => ({ path: f.path, sha256: f.sha256, kind: "campaign" })),
    targets: input.targets,
    excludes: input.excludes,
    policy:
      input.policy === undefined
        ? null
        : { files: input.policy.files, rules: input.policy.rules, loosened: input.policy.loosened },
    projects: [...projects],
    diagnostics,
    requests: input.requests,
    summary: summarize(projects, diagnostics),
    totals: totalSends(projects),
  };
}

/** What a project's own verdict rests on besides its file (see `judgeOwn`). */
export interface OwnContext extends ProjectPlanContext {
  readonly policy?: Policy;
  readonly windowsLater: boolean;
}

/** The projects `input` covers, each with its own verdict (`after` dependencies apart, not spread). */
export interface OwnVerdicts {
  readonly selection: Selection;
  readonly context: OwnContext;
  /** The `after` dependencies (action ids of other projects) of each covered address. */
  readonly dependencies: ReadonlyMap<string, readonly string[]>;
  /** Each covered project's own verdict, in the files' order (its actions wait for nothing outside it). */
  readonly projects: readonly ProjectPlan[];
}

/** Every covered project's own verdict (`judgeOwn`) and its `after` dependencies. */
export function assembleOwn(
  input: AssembleInput,
  catalogs: Catalogs = buildCatalogs(input.live),
): OwnVerdicts {
  const { campaign } = input;
  const selection = selectProjects(
    campaign.projects,
    input.targets,
    input.excludes,
    campaign.emailLists?.map((l) => l.address),
  );
  const covered = campaign.projects.filter((p) => selection.selected.has(p.address));
  const context: OwnContext = {
    live: input.live,
    catalogs,
    now: input.now,
    organizationId: input.organizationId,
    allowCrossOrganizationKey: input.allowCrossOrganizationKey === true,
    ...(input.policy === undefined ? {} : { policy: input.policy }),
    windowsLater: input.windowsLater === true,
  };
  const local = covered.map((spec) =>
    judgeOwn(spec, context, selection.excludedDependencies.get(spec.address) ?? []),
  );
  const byAddress = new Map(local.map((p) => [p.address, p]));
  const dependencies = afterDependencies(covered, (address) =>
    byAddress.get(address)?.actions.map((a) => a.id),
  );
  return { selection, context, dependencies, projects: local };
}

/**
 * One project's own verdict: its plan (project-plan.ts) and the policy's rules judged on it alone
 * (a violation holds its test and schedule). Nothing of another project enters it.
 */
export function judgeOwn(
  spec: ProjectSpec,
  context: OwnContext,
  excludedDependencies: readonly string[],
): ProjectPlan {
  const planned = planProject(spec, context, excludedDependencies);
  if (context.policy === undefined) return planned;
  const read = context.live.projects.get(spec.id);
  const facts = sendFactsOf(spec, read?.kind === "found" ? read.value : null, context.catalogs);
  const violations = policyViolations(context.policy, spec, {
    now: context.now,
    estimatedCostCents: planned.estimate?.estimated_cost_cents ?? null,
    recipients: planned.estimate?.recipients ?? null,
    facts,
    windowsLater: context.windowsLater,
  });
  const audience =
    planned.audience === null
      ? null
      : withPlaces(planned.audience, context.policy, facts.organization, planned.schedule?.timezone ?? null);
  return holdForPolicy({ ...planned, audience }, relateToOrigin(spec, violations));
}

/** `project` waiting for `dependencies` (action ids) in each action but its pause: a pause waits for nothing. */
export function withAfter(project: ProjectPlan, dependencies: readonly string[]): ProjectPlan {
  if (dependencies.length === 0) return project;
  return {
    ...project,
    actions: project.actions.map((a) =>
      a.kind === "pause" ? a : { ...a, depends_on: [...a.depends_on, ...dependencies] },
    ),
  };
}

/**
 * Spreads blocked and deferred statuses along every action's `depends_on` (graph.ts), across the
 * projects, and gives each project its actions back in order. Used again after a later hold (the
 * forecast's policy errors) blocks more actions.
 */
export function respread(projects: readonly ProjectPlan[]): ProjectPlan[] {
  const ordered = propagate(projects.flatMap((p) => p.actions));
  const actionsByAddress = new Map<string, Action[]>();
  for (const action of ordered) {
    const list = actionsByAddress.get(action.address);
    if (list === undefined) actionsByAddress.set(action.address, [action]);
    else list.push(action);
  }
  return projects.map((p) => ({ ...p, actions: actionsByAddress.get(p.address) ?? [] }));
}
