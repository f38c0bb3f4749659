/**
 * An experiment's holdout in the one plan (docs/experiments.md "The holdout"): the project that
 * sends the winner's wording to the rest of the list. Until the verdict (src/experiments/verdict.ts,
 * on the arms' statistics the refresh read) names a winner, the holdout's test and schedule are
 * deferred, waiting for the verdict (`experiment.holdout-deferred`); a holdout already scheduled or
 * sending live is a warning (`experiment.holdout-sending-early`). Once there is a winner, its
 * live text must be the winning arm's live text: otherwise its test and schedule are blocked
 * (`experiment.holdout-drift`, an error; a warning when it has neither), as drift blocks them. A
 * pause always goes ahead. Pure.
 */
import type { Campaign, ExperimentSpec } from "../campaign/model.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { type ArmCounters, decideVerdict, type Verdict } from "../experiments/verdict.js";
import { respread } from "./assemble.js";
import { combineBlocks } from "./blocks.js";
import type { LiveState } from "./live.js";
import { summarize } from "./summary.js";
import type { Action, Plan, ProjectPlan } from "./types.js";

const NO_COUNTS: ArmCounters = { sent: 0, delivered: 0, replies: 0, optedOut: 0, uniqueClicks: 0 };

/**
 * The verdict of `experiment` on the live statistics, and the arms without statistics (not listed
 * by the stats windows, or left out of the plan's reads by `--target`/`--exclude`): they count nothing.
 */
export function liveVerdict(
  experiment: ExperimentSpec,
  campaign: Campaign,
  live: LiveState,
): { readonly verdict: Verdict; readonly unread: readonly string[] } {
  const ids = new Map(campaign.projects.map((p) => [p.address, p.id]));
  const unread: string[] = [];
  const verdict = decideVerdict(
    experiment.metric,
    experiment.minSample,
    experiment.arms.map((arm) => {
      const id = ids.get(arm);
      const counters = id === undefined ? undefined : live.statistics?.get(id);
      if (counters === undefined) unread.push(arm);
      return { name: arm, counters: counters ?? NO_COUNTS };
    }),
  );
  return { verdict, unread };
}

/** An experiment with a holdout and its verdict on the live statistics, judged once per judgement. */
export interface Holdout {
  readonly experiment: ExperimentSpec;
  readonly judged: { readonly verdict: Verdict; readonly unread: readonly string[] };
}

/** Every experiment with a holdout and its verdict, by the holdout's address. */
export function holdoutsOf(campaign: Campaign, live: LiveState): ReadonlyMap<string, Holdout> {
  const out = new Map<string, Holdout>();
  for (const experiment of campaign.experiments ?? [])
    if (experiment.holdout !== undefined)
      out.set(experiment.holdout, { experiment, judged: liveVerdict(experiment, campaign, live) });
  return out;
}

/** `project` judged against its experiment's verdict when it is a holdout (see the file comment). */
export function judgeAsHoldout(
  project: ProjectPlan,
  holdouts: ReadonlyMap<string, Holdout>,
  campaign: Campaign,
  live: LiveState,
): ProjectPlan {
  const holdout = holdouts.get(project.address);
  if (holdout === undefined || project.live === null) return project;
  return judgeHoldout(project, holdout.experiment, holdout.judged, campaign, live);
}

/** The plan with every holdout judged against its experiment's verdict. */
export function holdForExperiments(plan: Plan, campaign: Campaign, live: LiveState): Plan {
  const holdouts = holdoutsOf(campaign, live);
  if (holdouts.size === 0) return plan;
  const projects = plan.projects.map((p) => judgeAsHoldout(p, holdouts, campaign, live));
  if (projects.every((p, i) => p === plan.projects[i])) return plan;
  const spread = respread(projects);
  return { ...plan, projects: spread, summary: summarize(spread, plan.diagnostics) };
}

function judgeHoldout(
  project: ProjectPlan,
  experiment: ExperimentSpec,
  judged: { readonly verdict: Verdict; readonly unread: readonly string[] },
  campaign: Campaign,
  live: LiveState,
): ProjectPlan {
  const { verdict, unread } = judged;
  const range = experiment.holdoutRange ?? experiment.range;
  const sending = project.live?.status === "scheduled" || project.live?.status === "active";
  if (verdict.kind !== "wins") {
    const missing =
      unread.length === 0
        ? ""
        : `; no statistics were read for ${unread.join(", ")} (plan without --target/--exclude, or include the arms)`;
    const waitsFor = `the verdict of experiment ${experiment.name} (now: ${verdict.words}${missing})`;
    const finding: Diagnostic = sending
      ? {
          severity: "warning",
          code: "experiment.holdout-sending-early",
          message: `${project.address} is the holdout of experiment ${experiment.name}, and it is ${project.live?.status} live while the verdict is "${verdict.words}"`,
          range,
          hint: "pause it (state: paused) until the verdict names a winner, if it should send the winner's wording",
        }
      : {
          severity: "info",
          code: "experiment.holdout-deferred",
          message: `${project.address} waits for ${waitsFor}`,
          range,
          hint: "plan again when the arms have sent more: its send is planned once the verdict names a winner",
        };
    const actions = project.actions.map((a) => deferAction(a, waitsFor));
    return { ...project, actions, diagnostics: [...project.diagnostics, finding] };
  }
  const winner = campaign.projects.find((p) => p.address === verdict.leader);
  const winnerRead = winner === undefined ? undefined : live.projects.get(winner.id);
  const holdoutRead = live.projects.get(project.project_id);
  const winnerText = winnerRead?.kind === "found" ? winnerRead.value.message_text : null;
  const holdoutText = holdoutRead?.kind === "found" ? holdoutRead.value.message_text : null;
  if (winnerText !== null && winnerText === holdoutText) return project;
  // An error where it blocks a test or schedule; a warning on a holdout that sends nothing now.
  const blocks = project.actions.some((a) => a.kind !== "pause");
  const finding: Diagnostic = {
    severity: blocks ? "error" : "warning",
    code: "experiment.holdout-drift",
    message: `${project.address}: ${verdict.words} in experiment ${experiment.name}, but the holdout's live text is not ${verdict.leader}'s${holdoutText === null || winnerText === null ? " (one of them could not be read)" : `: it sends "${clip(holdoutText)}", the winner "${clip(winnerText)}"`}`,
    range,
    hint: `give ${project.address} the winning wording in the dashboard (and its file's message), then plan again`,
  };
  const block = {
    reason: `drift: the holdout's live text is not the winning arm's (${verdict.leader})`,
    fix: `give ${project.address} ${verdict.leader}'s wording in the dashboard, then plan again`,
    codes: ["experiment.holdout-drift" as const],
  };
  const actions = project.actions.map((a): Action => {
    if (a.kind === "pause") return a;
    const { waits_for: _waits, ...rest } = a;
    return {
      ...rest,
      status: "blocked",
      block: combineBlocks(a.block === undefined ? [block] : [a.block, block]) ?? block,
    };
  });
  return { ...project, actions, diagnostics: [...project.diagnostics, finding] };
}

/** A planned test or schedule waits for the verdict (no idempotency key until it is sendable). */
function deferAction(action: Action, waitsFor: string): Action {
  if (action.kind === "pause" || action.status !== "planned") return action;
  return {
    ...action,
    status: "deferred",
    waits_for: waitsFor,
    request: { ...action.request, idempotency_key: null },
  };
}

function clip(text: string): string {
  return text.length <= 60 ? text : `${text.slice(0, 59)}…`;
}
