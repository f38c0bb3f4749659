/**
 * A saved plan applied before (issue 17 item 5): re-running `apply PLANFILE` after a successful run
 * finds every reviewed action's effect in the live projects. The plan made again then has no such
 * actions (the planner stops asking once the live state moved on) and the saved plan is "stale";
 * this pure check tells that case apart from every other difference, so the re-run reports each
 * action as already applied and exits 0, sending nothing. Nothing here does IO.
 *
 * The saved plan is already applied when all of the following hold (anything else refuses as today):
 * - It has at least one action, and every action is `planned` or `deferred` (a blocked one never
 *   took effect).
 * - Each project with actions ("acted") is, in the plan made now, the same project (id, file,
 *   desired state), readable, with no action left, the same drift and the same error codes; and
 *   its live status is where its last reviewed action leads ({@link SETTLED}), a status that proves
 *   every one of its actions took effect (`provesEffect`). A schedule's live time, timezone and
 *   daily cap bypass are the reviewed body's (`at: now` matches any time, as the planner's own
 *   schedule match does; a bypass the API does not show is not compared).
 * - The same keys: the files judged against each acted project rewound to the status and
 *   `updated_at` the saved plan was made from, at the saved plan's own `created_at`, give exactly
 *   the saved actions, requests, bodies and idempotency keys (`compareWithReviewed`). Keys derive
 *   from that basis, so this proves the reviewed keys are the ones the files give, and that nothing
 *   else (drift, references, policy) differs for these projects.
 * - Every other project is as reviewed (`compareWithReviewed` on the rest: same projects, no new
 *   action). The files' sha256 are checked before this, by `compareFiles`.
 *
 * A partly applied plan (a test done, its schedule still waiting for approval) is not this case: its
 * project is where no last action leads, and it is refused as stale, as before.
 */
import { sameInstant } from "../contract/instant.js";
import type { ProjectStatus } from "../contract/limits.js";
import type { Project } from "../contract/resources.js";
import { provesEffect } from "../plan/lifecycle.js";
import type { LiveRead } from "../plan/live.js";
import type { Action, ActionKind, Plan, ProjectPlan } from "../plan/types.js";
import { scheduleEffectOfProject } from "./effects.js";
import { type UnsentRunMeta, unsentResult, unsentRunResult } from "./result.js";
import { compareWithReviewed } from "./saved-plan.js";
import type { Judge } from "./sendable.js";
import type { ActionResult, ApplyResult } from "./types.js";

/**
 * Where a project may be once the last of its reviewed actions took effect and nothing else was
 * done to it: the action's `after` (lifecycle `to`), and what follows from it alone (a test's
 * approval; a schedule's time coming and its sends finishing). Invariant: each list holds
 * `LIFECYCLE[kind].to` and only statuses of `LIFECYCLE[kind].proof`. A schedule since paused, a
 * tested project since scheduled, moved on to something else: not already applied.
 */
export const SETTLED: Readonly<Record<ActionKind, readonly ProjectStatus[]>> = {
  test: ["awaiting_test", "ready"],
  schedule: ["scheduled", "active", "completed"],
  pause: ["paused"],
};

/** The lifecycle's order of a project's actions: the last present is where the project ends. */
const ORDER: readonly ActionKind[] = ["test", "schedule", "pause"];

export interface AlreadyAppliedInput {
  /** The saved (reviewed) plan. */
  readonly reviewed: Plan;
  /** The plan made again now from the same files and fresh reads. */
  readonly fresh: Plan;
  /** The project reads `fresh` was judged from, by project id. */
  readonly live: ReadonlyMap<string, LiveRead<Project>>;
  /** Judges the same files against other project reads (the pipeline's). */
  readonly judge: Judge;
}

/**
 * `applied`: one `replayed` result per reviewed action, in plan order, none sent (0 attempts, no
 * key), each saying what shows it took effect. `not-applied`: why not, one phrase per reason.
 */
export type AlreadyApplied =
  | { readonly kind: "applied"; readonly actions: readonly ActionResult[] }
  | { readonly kind: "not-applied"; readonly reasons: readonly string[] };

export function alreadyApplied(input: AlreadyAppliedInput): AlreadyApplied {
  const { reviewed, fresh, live } = input;
  const acted = reviewed.projects.filter((p) => p.actions.length > 0);
  if (acted.length === 0) return notApplied(["the saved plan has no action"]);
  const reasons: string[] = reviewed.projects
    .flatMap((p) => p.actions)
    .filter((a) => a.status === "blocked")
    .map((a) => `${a.id} is blocked in the saved plan`);

  const actedAddresses = new Set(acted.map((p) => p.address));
  const others = compareWithReviewed(
    keep(reviewed, actedAddresses, false),
    keep(fresh, actedAddresses, false),
  );
  reasons.push(...others.map((d) => d.message));

  const freshByAddress = new Map(fresh.projects.map((p) => [p.address, p]));
  const found = new Map<string, Project>();
  for (const saved of acted) {
    const read = live.get(saved.project_id);
    const project = read?.kind === "found" ? read.value : undefined;
    const why = projectReasons(saved, freshByAddress.get(saved.address), project, reviewed.created_at);
    reasons.push(...why);
    if (why.length === 0 && project !== undefined) found.set(saved.project_id, project);
  }
  if (reasons.length > 0) return notApplied(reasons);

  reasons.push(...sameKeys(input, acted, actedAddresses));
  if (reasons.length > 0) return notApplied(reasons);

  // `acted` is in plan order, and so is each project's list: the results are in plan order.
  const actions = acted.flatMap((p) => {
    const project = found.get(p.project_id);
    return project === undefined ? [] : p.actions.map((a) => appliedResult(a, project));
  });
  return { kind: "applied", actions };
}

/**
 * The report of a saved plan found already applied: every action `replayed` (nothing sent),
 * nothing refused, no journal (nothing was sent to record). `at` is the API's time of the check.
 */
export function alreadyAppliedResult(
  reviewed: Plan,
  actions: readonly ActionResult[],
  meta: UnsentRunMeta,
): ApplyResult {
  return unsentRunResult(reviewed.created_at, actions, [], meta);
}

function notApplied(reasons: readonly string[]): AlreadyApplied {
  return { kind: "not-applied", reasons };
}

/** Why one acted project does not show its reviewed actions' effects now; empty when it does. */
function projectReasons(
  saved: ProjectPlan,
  now: ProjectPlan | undefined,
  project: Project | undefined,
  reviewedAt: string,
): string[] {
  const at = saved.address;
  if (now === undefined) return [`${at}: absent from the files`];
  const out: string[] = [];
  if (now.project_id !== saved.project_id) out.push(`${at}: now names project ${now.project_id}`);
  if (now.file !== saved.file) out.push(`${at}: now comes from ${now.file}`);
  if (now.desired !== saved.desired) out.push(`${at}: the file now wants ${now.desired}`);
  if (project === undefined || now.live === null) return [...out, `${at}: the project cannot be read`];
  if (now.actions.length > 0)
    out.push(
      `${at}: the plan made now still has ${now.actions.map((a) => `${a.id} (${a.status})`).join(", ")}`,
    );
  if (JSON.stringify(now.drift) !== JSON.stringify(saved.drift)) out.push(`${at}: its drift differs`);
  if (errorCodes(now) !== errorCodes(saved))
    out.push(
      `${at}: its errors differ (saved: ${errorCodes(saved) || "none"}; now: ${errorCodes(now) || "none"})`,
    );
  const status = project.status;
  const last = lastKind(saved.actions);
  if (!SETTLED[last].includes(status))
    out.push(`${at}: live status ${status} is not where its ${last} leads (${SETTLED[last].join(", ")})`);
  for (const a of saved.actions) {
    if (!provesEffect(a.kind, status))
      out.push(`${a.id}: live status ${status} does not show it took effect`);
    if (a.kind === "schedule") out.push(...scheduleReasons(a, project, reviewedAt));
  }
  return out;
}

/** The live schedule against the reviewed body (`at: now`: the body's time is the plan's own, any time matches). */
function scheduleReasons(action: Action, project: Project, reviewedAt: string): string[] {
  const body = action.request.body;
  if (!isRecord(body)) return [`${action.id}: the saved body is not a schedule`];
  const out: string[] = [];
  const at = body.scheduled_at;
  const atNow = typeof at === "string" && sameInstant(at, reviewedAt);
  if (
    !atNow &&
    !(typeof at === "string" && project.scheduled_at !== null && sameInstant(at, project.scheduled_at))
  )
    out.push(
      `${action.id}: live scheduled_at is ${project.scheduled_at ?? "(none)"}, reviewed ${String(at)}`,
    );
  if (project.scheduled_timezone !== body.scheduled_timezone)
    out.push(
      `${action.id}: live scheduled_timezone is ${project.scheduled_timezone ?? "(none)"}, reviewed ${String(body.scheduled_timezone)}`,
    );
  if (project.daily_cap_bypass !== undefined && project.daily_cap_bypass !== body.daily_cap_bypass)
    out.push(
      `${action.id}: live daily_cap_bypass is ${String(project.daily_cap_bypass)}, reviewed ${String(body.daily_cap_bypass)}`,
    );
  return out;
}

/**
 * The files judged against the acted projects as they were when the saved plan was made (the
 * status and `updated_at` it records), at its `created_at`: the saved actions, requests and keys,
 * or the differences.
 */
function sameKeys(
  input: AlreadyAppliedInput,
  acted: readonly ProjectPlan[],
  addresses: ReadonlySet<string>,
): string[] {
  const rewound = new Map(input.live);
  for (const saved of acted) {
    const read = input.live.get(saved.project_id);
    if (read?.kind !== "found" || saved.live === null) return [`${saved.address}: no basis to rewind to`];
    rewound.set(saved.project_id, {
      kind: "found",
      value: { ...read.value, status: saved.live.status, updated_at: saved.live.updated_at },
    });
  }
  const at = new Date(input.reviewed.created_at);
  if (Number.isNaN(at.getTime()))
    return [`the saved plan's created_at ${input.reviewed.created_at} cannot be read`];
  const then = input.judge(rewound, at).plan;
  return compareWithReviewed(keep(input.reviewed, addresses, true), keep(then, addresses, true)).map(
    (d) => `as planned from its basis, ${d.message}`,
  );
}

/** One reviewed action reported as already applied: nothing sent, the live status and schedule shown. */
function appliedResult(action: Action, project: Project): ActionResult {
  const schedule = action.kind === "schedule" ? scheduleEffectOfProject(project, action.request.body) : null;
  return {
    ...unsentResult(action, "replayed", `already applied: ${evidence(action, project)}; nothing sent`),
    status_after: project.status,
    schedule,
  };
}

function evidence(action: Action, project: Project): string {
  const where = `${action.address} is ${project.status} (updated_at ${project.updated_at})`;
  switch (action.kind) {
    case "test":
      return `${where}, so its test was sent`;
    case "schedule":
      return `${where} for ${project.scheduled_at ?? "(none)"} in ${project.scheduled_timezone ?? "(none)"}, as reviewed`;
    case "pause":
      return `${where}, as reviewed`;
  }
}

function lastKind(actions: readonly Action[]): ActionKind {
  const kinds = new Set(actions.map((a) => a.kind));
  return [...ORDER].reverse().find((k) => kinds.has(k)) ?? "test";
}

function errorCodes(p: ProjectPlan): string {
  return p.diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => d.code)
    .sort()
    .join(",");
}

/** The plan with only (`inside`) or without (`!inside`) the projects at `addresses`. */
function keep(plan: Plan, addresses: ReadonlySet<string>, inside: boolean): Plan {
  return { ...plan, projects: plan.projects.filter((p) => addresses.has(p.address) === inside) };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
