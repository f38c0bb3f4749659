/**
 * `apply` of campaign files under `require_approvals` (issue 37 point 6): the files and the live
 * state are judged in the run itself, so there is no saved plan anyone could have approved. Each
 * schedule the rule covers is held (blocked, `apply.approvals-need-saved-plan`, at its project's
 * schedule) and the hold spreads to what is ordered after it, as a policy violation's does; tests
 * and pauses go ahead. Applied to the plan shown and to every re-judgement of apply's loop, so a
 * schedule that becomes runnable later (its test approved) is held too. Pure.
 */
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import { respread } from "../plan/assemble.js";
import { combineBlocks } from "../plan/blocks.js";
import { summarize } from "../plan/summary.js";
import type { Action, Block, Plan, ProjectPlan } from "../plan/types.js";
import type { ApprovalsRule } from "../policy/approvals-rule.js";
import { needsApproval } from "./scope.js";

/** Where findings point: a project's schedule, and the policy's rule. */
export interface HoldPlaces {
  readonly schedule: (address: string) => SourceRange | undefined;
  readonly rule?: SourceRange;
}

const FIX =
  "save the plan (`campaignctl plan --out plan.json`), have it approved (pull request reviews, or `campaignctl approve plan.json --key KEY`), and apply plan.json";

/** `plan` with every schedule `rule` covers held; the plan as it is without the rule or such schedule. */
export function holdUnapproved(plan: Plan, rule: ApprovalsRule | undefined, places: HoldPlaces): Plan {
  if (rule === undefined) return plan;
  let held = false;
  const projects = plan.projects.map((project) => {
    const covered = project.actions.filter((a) => needsApproval(a, rule));
    if (covered.length === 0) return project;
    held = true;
    return holdProject(project, rule, places);
  });
  if (!held) return plan;
  const spread = respread(projects);
  const items = {
    ...(plan.email === undefined ? {} : { email: plan.email }),
    ...(plan.replies === undefined ? {} : { replies: plan.replies }),
  };
  return { ...plan, projects: spread, summary: summarize(spread, plan.diagnostics, items) };
}

function holdProject(project: ProjectPlan, rule: ApprovalsRule, places: HoldPlaces): ProjectPlan {
  const count = `${rule.count} approval${rule.count === 1 ? "" : "s"}`;
  const block: Block = {
    reason: `needs ${count} of a saved plan (require_approvals)`,
    fix: FIX,
    codes: ["apply.approvals-need-saved-plan"],
  };
  const range = places.schedule(project.address);
  const finding: Diagnostic = {
    severity: "error",
    code: "apply.approvals-need-saved-plan",
    message: `${project.address}: the policy's require_approvals holds this schedule until ${count} by people other than its author approve a saved plan, and apply of campaign files makes no plan anyone approved`,
    ...(range === undefined ? {} : { range }),
    hint: FIX,
    ...(places.rule === undefined
      ? {}
      : { related: [{ message: "the policy's rule require_approvals", range: places.rule }] }),
  };
  const actions = project.actions.map((a): Action => {
    if (!needsApproval(a, rule)) return a;
    const { waits_for: _waits, ...rest } = a;
    return {
      ...rest,
      status: "blocked",
      block: combineBlocks([...(a.block === undefined ? [] : [a.block]), block]) ?? block,
    };
  });
  return { ...project, actions, diagnostics: [...project.diagnostics, finding] };
}
