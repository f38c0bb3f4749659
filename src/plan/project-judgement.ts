/**
 * One project's judgement, as the whole plan makes it and as apply's re-check right before a send
 * makes it alone (design.md principle 11: one judge). A project's verdict is its own (its file, its
 * read, the policy's rules on it alone, the clock: `judgeOwn`) under the rules that span projects,
 * taken from the plan's context, judged once per judgement (src/plan/judge.ts):
 *
 * - `after` ordering: the action ids it waits for, and how those actions settled (graph.ts `settle`);
 * - an experiment's holdout: its experiment's verdict on the statistics read;
 * - the forecast (brands' daily caps over every send of the files): each project's findings, its
 *   send's course (for the window rules, judged on the clock given), whether the brand's live sends
 *   were all read;
 * - the policy's budgets: what each budget's period spent, what is scheduled live, and what the
 *   sends before this one in the plan's order planned.
 *
 * `judgeRules` is the one function both paths use, so a project judged alone at the judgement's
 * instant is exactly the project within the whole plan (test/plan/project-judgement.test.ts); at a
 * later instant, what depends on the clock is judged on that clock, the rest rests on the context.
 * Pure.
 */
import type { Campaign, ProjectSpec } from "../campaign/model.js";
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import type { Policy } from "../policy/model.js";
import type { SendFacts } from "../policy/window-rules.js";
import { judgeOwn, type OwnContext, withAfter } from "./assemble.js";
import { type BudgetLedger, budgetHolds } from "./budget-hold.js";
import { type Holdout, judgeAsHoldout } from "./experiment-hold.js";
import { forecastHolds } from "./forecast-hold.js";
import { settle } from "./graph.js";
import { holdForPolicy } from "./policy-hold.js";
import { sendFactsOf } from "./send-facts.js";
import type { Action, ProjectPlan } from "./types.js";
import { type SendSpan, windowHolds } from "./window-hold.js";

/** What the forecast of every send of the files says of each project. */
export interface ForecastRules {
  readonly findings: ReadonlyMap<string, readonly Diagnostic[]>;
  readonly courses: ReadonlyMap<string, SendSpan>;
  /**
   * Under `forecast_errors` with the brand's live sends not all read, every project the forecast
   * covers (`courses`) is held (`forecast.sent-unknown`); `rule`: where the policy says it.
   */
  readonly unseen: { readonly rule?: SourceRange } | null;
}

/**
 * The plan's context: what one judgement (files, policy, reads, clock) says that spans projects.
 * Invariant: built by `judge`/`rejudge` from the same input as the plan it comes with; `settled`
 * holds every action of that plan.
 */
export interface PlanContext {
  readonly campaign: Campaign;
  readonly policy: Policy | null;
  /** The reads and everything else a project's own verdict rests on, at the judgement's instant. */
  readonly own: OwnContext;
  readonly specs: ReadonlyMap<string, ProjectSpec>;
  /** For each covered address, the excluded projects it is ordered after (`--exclude`). */
  readonly excludedDependencies: ReadonlyMap<string, readonly string[]>;
  /** For each covered address, the other projects' action ids it waits for (`after`). */
  readonly dependencies: ReadonlyMap<string, readonly string[]>;
  readonly holdouts: ReadonlyMap<string, Holdout>;
  /** Present when the judgement forecasts. */
  readonly forecast?: ForecastRules;
  readonly budgets: readonly BudgetLedger[];
  /** Every action of the judged plan, settled, by id. */
  readonly settled: ReadonlyMap<string, Action>;
  /** The ids of actions on an `after` cycle. */
  readonly cyclic: ReadonlySet<string>;
}

/**
 * A project's verdict before `after` ordering spreads: its own, then (with its `after`
 * dependencies) the holdout's experiment, the forecast's findings, the window rules over its send,
 * the unseen live sends, the budgets. `now` is the clock of the rules that read it.
 */
export function judgeRules(
  context: PlanContext,
  own: ProjectPlan,
  spec: ProjectSpec,
  now: Date,
): ProjectPlan {
  const withOrder = withAfter(own, context.dependencies.get(own.address) ?? []);
  const holdout = judgeAsHoldout(withOrder, context.holdouts, context.campaign, context.own.live);
  const forecast = context.forecast;
  if (forecast === undefined) return budgetHolds(holdout, context.budgets, context.policy, spec);
  const found = forecastHolds(holdout, forecast.findings.get(own.address) ?? []);
  const windows =
    context.policy === null
      ? found
      : windowHolds(
          found,
          spec,
          factsOf(context, spec, found),
          forecast.courses.get(own.address) ?? null,
          context.policy,
          now,
        );
  const unseen =
    forecast.unseen !== null && forecast.courses.has(own.address)
      ? holdForPolicy(windows, [sentUnknown(windows, spec, forecast.unseen.rule)])
      : windows;
  return budgetHolds(unseen, context.budgets, context.policy, spec);
}

/**
 * The project at `address` judged alone at `now` against the plan's context: its own verdict and
 * the rules on it (`judgeRules`, on the clock `now`), its actions settled against the settled
 * actions of what it waits for. Undefined when the plan does not cover it.
 */
export function judgeProject(context: PlanContext, address: string, now: Date): ProjectPlan | undefined {
  const spec = context.specs.get(address);
  const excluded = context.excludedDependencies.get(address);
  if (spec === undefined || excluded === undefined) return undefined;
  const own = judgeOwn(spec, { ...context.own, now }, excluded);
  const judged = judgeRules(context, own, spec, now);
  const mine = new Map(judged.actions.map((a) => [a.id, a]));
  const done = new Map<string, Action>();
  const settleOwn = (action: Action): Action => {
    const known = done.get(action.id);
    if (known !== undefined) return known;
    const out = settle(action, context.cyclic.has(action.id), (id) => {
      const sibling = mine.get(id);
      return sibling === undefined ? context.settled.get(id) : settleOwn(sibling);
    });
    done.set(action.id, out);
    return out;
  };
  return { ...judged, actions: judged.actions.map(settleOwn) };
}

function factsOf(
  context: PlanContext,
  spec: ProjectSpec,
  project: { readonly project_id: string },
): SendFacts {
  const read = context.own.live.projects.get(project.project_id);
  return sendFactsOf(spec, read?.kind === "found" ? read.value : null, context.own.catalogs);
}

/**
 * Under `forecast_errors`, with the brand's live sends not all read: the project is held with an
 * error (`forecast.sent-unknown`), since a send it cannot see may put it past its brand's cap.
 */
function sentUnknown(project: ProjectPlan, spec: ProjectSpec, rule: SourceRange | undefined): Diagnostic {
  return {
    severity: "error",
    code: "forecast.sent-unknown",
    message: `${project.address}: the brand's live sends could not all be read, so the policy's forecast_errors cannot be judged for it; its test and schedule are held`,
    range: spec.range,
    hint: "plan again once the statistics and project reads succeed (see the warning forecast.sent-unknown)",
    ...(rule === undefined
      ? {}
      : { related: [{ message: "the policy's rule forecast_errors", range: rule }] }),
  };
}
