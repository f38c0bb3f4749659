/**
 * The planner's entry point: a pure function of (campaign, live state, clock) to a `Plan`. It
 * narrows the campaign to `--target`/`--exclude`, plans each covered project, orders the actions
 * by `after`, spreads blocked and deferred statuses along that order, and counts the result.
 */
import type { Campaign } from "../campaign/model.js";
import { relateToOrigin } from "../campaign/template-origin.js";
import type { Policy } from "../policy/model.js";
import { policyViolations } from "../policy/rules.js";
import { buildCatalogs } from "./catalogs.js";
import { afterDependencies, propagate } from "./graph.js";
import type { LiveState } from "./live.js";
import { holdForPolicy } from "./policy-hold.js";
import { planProject } from "./project-plan.js";
import { selectProjects } from "./select.js";
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
  const { campaign, live, now } = input;
  const selection = selectProjects(
    campaign.projects,
    input.targets,
    input.excludes,
    campaign.emailLists?.map((l) => l.address),
  );
  const covered = campaign.projects.filter((p) => selection.selected.has(p.address));
  const catalogs = buildCatalogs(live);
  const context = {
    live,
    catalogs,
    now,
    organizationId: input.organizationId,
    allowCrossOrganizationKey: input.allowCrossOrganizationKey === true,
  };
  const local = covered.map((spec) => {
    const planned = planProject(spec, context, selection.excludedDependencies.get(spec.address) ?? []);
    if (input.policy === undefined) return planned;
    const read = live.projects.get(spec.id);
    const facts = sendFactsOf(spec, read?.kind === "found" ? read.value : null, catalogs);
    const violations = policyViolations(input.policy, spec, {
      now,
      estimatedCostCents: planned.estimate?.estimated_cost_cents ?? null,
      facts,
      windowsLater: input.windowsLater === true,
    });
    const audience =
      planned.audience === null
        ? null
        : withPlaces(planned.audience, input.policy, facts.organization, planned.schedule?.timezone ?? null);
    return holdForPolicy({ ...planned, audience }, relateToOrigin(spec, violations));
  });

  const byAddress = new Map(local.map((p) => [p.address, p]));
  const dependencies = afterDependencies(covered, (address) =>
    byAddress.get(address)?.actions.map((a) => a.id),
  );
  // A pause waits for nothing: stopping a send must never queue behind another project.
  const projects = respread(
    local.map((p) => ({
      ...p,
      actions: p.actions.map((a) =>
        a.kind === "pause"
          ? a
          : { ...a, depends_on: [...a.depends_on, ...(dependencies.get(p.address) ?? [])] },
      ),
    })),
  );

  return {
    format_version: PLAN_FORMAT_VERSION,
    tool_version: input.toolVersion,
    created_at: now.toISOString(),
    base_url: input.baseUrl,
    files: campaign.files.map((f) => ({ path: f.path, sha256: f.sha256, kind: "campaign" })),
    targets: input.targets,
    excludes: input.excludes,
    policy:
      input.policy === undefined
        ? null
        : { files: input.policy.files, rules: input.policy.rules, loosened: input.policy.loosened },
    projects,
    diagnostics: selection.diagnostics,
    requests: input.requests,
    summary: summarize(projects, selection.diagnostics),
    totals: totalSends(projects),
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
