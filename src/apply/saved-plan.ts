/**
 * A saved plan is the reviewed expectation, not a list of instructions (issue 9, design.md "Plan").
 * `apply PLANFILE` re-derives the plan from the files the saved plan names and fresh live reads,
 * and acts only where the result is identical to what was reviewed. These pure comparisons say
 * where it is not: every difference is one error diagnostic naming the action (or project) and the
 * field, with the saved and the fresh value. Nothing here does IO.
 *
 * What "identical" means, precisely:
 * - The same projects (address, id, file, desired state), the same action ids. The files are not
 *   compared here: `apply PLANFILE` refuses, before any request, a plan that names none or has a
 *   project from a file it does not list (`checkPlanSources`), and a file whose sha256 changed or
 *   that is gone (`compareFiles`); the plan is then made again from those same paths. A file edited
 *   in between shows here only through what it changes in the plan, which is what matters.
 * - Per action: the same status, project, `depends_on`, and for an action that may be sent
 *   (saved status `planned` or `deferred`) the same request method, path and body, and, when both
 *   are `planned`, the same idempotency key.
 * - Two departures, both re-judged rather than trusted: a saved `deferred` action may be fresh
 *   `planned` (it became runnable: its approval came) when its request is otherwise equal, and its
 *   key is then the fresh one (a deferred action's key is derived when it becomes sendable); and a
 *   schedule written `at: now` has a `scheduled_at` equal to the time its plan was made, so two
 *   such bodies are equal when each `scheduled_at` is its own plan's "now" (the key then differs
 *   with the body, as it must).
 */
import { sameInstant } from "../contract/instant.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Action, Plan, ProjectPlan } from "../plan/types.js";
import { type ProjectNow, staleProjects } from "./stale.js";

/**
 * The times the two sides were judged at (a plan's `created_at`; the loop's clock for a deferred
 * action re-judged later), so a `scheduled_at` written `at: now` compares as "now" on both sides.
 */
export interface JudgedAt {
  readonly reviewed: string;
  readonly fresh: string;
}

const HINT =
  "the saved plan is not what its files and the live projects give now: make the plan again (`campaignctl plan --out FILE ...`), review it, and apply that";

/**
 * The saved plan against the plan made again now from its files and fresh reads: a project whose
 * live state moved (or cannot be read) is named once, as stale (`apply.plan-stale`,
 * `apply.project-unreadable`); the rest is compared action by action ({@link compareWithReviewed}).
 * Empty when the saved plan may run.
 */
export function compareSavedWithFresh(reviewed: Plan, fresh: Plan, planFile: string): Diagnostic[] {
  const stale = staleProjects(reviewed, liveReads(reviewed, fresh), planFile);
  const addresses = new Set(stale.map((s) => s.project.address));
  const differences = compareWithReviewed(without(reviewed, addresses), without(fresh, addresses));
  return [...stale.map((s) => s.diagnostic), ...differences];
}

/**
 * What the fresh plan read of each reviewed project (by the reviewed project's id), in the shape the
 * staleness check takes. A project whose address now names another id, or that is gone from the
 * files, is left to `compareWithReviewed`, which names that difference.
 */
function liveReads(reviewed: Plan, fresh: Plan): ReadonlyMap<string, ProjectNow> {
  const byAddress = new Map(fresh.projects.map((p) => [p.address, p]));
  const out = new Map<string, ProjectNow>();
  for (const r of reviewed.projects) {
    const p = byAddress.get(r.address);
    if (p === undefined || p.project_id !== r.project_id) {
      if (r.live !== null) out.set(r.project_id, { kind: "found", live: r.live });
    } else if (p.live !== null) out.set(r.project_id, { kind: "found", live: p.live });
    else {
      const problem = p.diagnostics.find((d) => d.severity === "error");
      out.set(r.project_id, {
        kind: "unreadable",
        code: problem?.code ?? "unreadable",
        message: problem?.message ?? "the project could not be read",
      });
    }
  }
  return out;
}

/** The plan without some projects. */
function without(plan: Plan, addresses: ReadonlySet<string>): Plan {
  if (addresses.size === 0) return plan;
  return { ...plan, projects: plan.projects.filter((p) => !addresses.has(p.address)) };
}

/** Every difference between the reviewed (saved) plan and the plan re-derived now; empty when identical. */
export function compareWithReviewed(reviewed: Plan, fresh: Plan): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at: JudgedAt = { reviewed: reviewed.created_at, fresh: fresh.created_at };
  const freshProjects = new Map(fresh.projects.map((p) => [p.address, p]));
  const reviewedProjects = new Map(reviewed.projects.map((p) => [p.address, p]));
  for (const saved of reviewed.projects) {
    const now = freshProjects.get(saved.address);
    if (now === undefined) {
      out.push(differs(saved.address, "project", describeProject(saved), "absent from the files"));
      continue;
    }
    out.push(...compareProjects(saved, now));
  }
  for (const now of fresh.projects)
    if (!reviewedProjects.has(now.address))
      out.push(differs(now.address, "project", "absent", describeProject(now)));

  const freshActions = new Map(fresh.projects.flatMap((p) => p.actions).map((a) => [a.id, a]));
  const reviewedIds = new Set<string>();
  for (const saved of reviewed.projects.flatMap((p) => p.actions)) {
    reviewedIds.add(saved.id);
    const now = freshActions.get(saved.id);
    if (now === undefined) {
      const project = freshProjects.get(saved.address);
      out.push(differs(saved.id, "action", `${saved.status} ${saved.kind}`, absentAction(project)));
      continue;
    }
    out.push(...compareActions(saved, now, at));
  }
  for (const now of fresh.projects.flatMap((p) => p.actions))
    if (!reviewedIds.has(now.id)) out.push(differs(now.id, "action", "absent", `${now.status} ${now.kind}`));
  return out;
}

/**
 * One action re-judged when it becomes runnable (a deferred action of a saved plan), against the
 * reviewed one: null when it may go out (same project, kind, method, path and body, and the same
 * key when the reviewed one had a key), else one diagnostic naming every field that differs. A
 * fresh action that is blocked (drift, a failed precondition) differs, with the block's reason.
 * Dependencies are not compared: once runnable, what it waited for is done (a deferred schedule's
 * test is no longer planned once the project is `ready`).
 */
export function sameAsReviewed(reviewed: Action, fresh: Action, at?: JudgedAt): Diagnostic | null {
  const differences = actionDifferences(reviewed, fresh, at, true);
  if (differences.length === 0) return null;
  return {
    severity: "error",
    code: "apply.plan-differs",
    message: `${reviewed.id}: re-judged now, it is not the action reviewed (${differences.map(describeDifference).join("; ")})`,
    hint: HINT,
  };
}

/** A field that differs: where, the saved value and the fresh value (display strings). */
interface Difference {
  readonly field: string;
  readonly saved: string;
  readonly fresh: string;
}

function compareProjects(saved: ProjectPlan, now: ProjectPlan): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (saved.project_id !== now.project_id)
    out.push(differs(saved.address, "project_id", saved.project_id, now.project_id));
  if (saved.file !== now.file) out.push(differs(saved.address, "file", saved.file, now.file));
  if (saved.desired !== now.desired) out.push(differs(saved.address, "desired", saved.desired, now.desired));
  if (now.live === null)
    out.push(differs(saved.address, "live", saved.live === null ? "unreadable" : "read", "unreadable now"));
  return out;
}

function compareActions(saved: Action, now: Action, at: JudgedAt): Diagnostic[] {
  return actionDifferences(saved, now, at, false).map((d) => differs(saved.id, d.field, d.saved, d.fresh));
}

/**
 * The fields of `fresh` that differ from `saved`. `runnable`: the fresh action is judged at the
 * moment it may be sent (a blocked one then, or one blocked when reviewed, is a status difference).
 */
function actionDifferences(
  saved: Action,
  fresh: Action,
  at: JudgedAt | undefined,
  runnable: boolean,
): Difference[] {
  const out: Difference[] = [];
  if (saved.project_id !== fresh.project_id)
    out.push({ field: "project_id", saved: saved.project_id, fresh: fresh.project_id });
  if (saved.kind !== fresh.kind) out.push({ field: "kind", saved: saved.kind, fresh: fresh.kind });
  // Runnable now, it may have been planned or deferred when reviewed, never blocked: a blocked
  // action was not reviewed (nor approved) for sending, whatever unblocked it since.
  const statusOk =
    saved.status === fresh.status ||
    (saved.status === "deferred" && fresh.status === "planned") ||
    (runnable && fresh.status !== "blocked" && saved.status !== "blocked");
  if (!statusOk)
    out.push({
      field: "status",
      saved: saved.status,
      fresh: fresh.block === undefined ? fresh.status : `${fresh.status}: ${fresh.block.reason}`,
    });
  // When runnable, what it waited for is done: dependencies order sends, they are not what is sent.
  if (!runnable && !sameSet(saved.depends_on, fresh.depends_on))
    out.push({ field: "depends_on", saved: show(saved.depends_on), fresh: show(fresh.depends_on) });
  // A blocked action is never sent: its request is not what was reviewed for sending.
  if (saved.status === "blocked") return out;
  if (saved.request.method !== fresh.request.method)
    out.push({ field: "request.method", saved: saved.request.method, fresh: fresh.request.method });
  if (saved.request.path !== fresh.request.path)
    out.push({ field: "request.path", saved: saved.request.path, fresh: fresh.request.path });
  const body = bodyDifferences(saved, fresh, at);
  out.push(...body.differences);
  const keyed =
    saved.request.idempotency_key !== null &&
    fresh.request.idempotency_key !== null &&
    saved.status === fresh.status;
  // Bodies equal but for `at: now` hash to different keys, as they must; any other key change counts.
  if (keyed && !body.atNow && saved.request.idempotency_key !== fresh.request.idempotency_key)
    out.push({
      field: "request.idempotency_key",
      saved: String(saved.request.idempotency_key),
      fresh: String(fresh.request.idempotency_key),
    });
  return out;
}

function bodyDifferences(
  saved: Action,
  fresh: Action,
  at: JudgedAt | undefined,
): { differences: Difference[]; atNow: boolean } {
  const differences: Difference[] = [];
  let atNow = false;
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (Object.is(a, b)) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) {
        if (i >= a.length) differences.push({ field: `${path}[${i}]`, saved: "absent", fresh: show(b[i]) });
        else if (i >= b.length)
          differences.push({ field: `${path}[${i}]`, saved: show(a[i]), fresh: "absent" });
        else walk(a[i], b[i], `${path}[${i}]`);
      }
      return;
    }
    if (isRecord(a) && isRecord(b)) {
      for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
        const child = `${path}.${key}`;
        if (!Object.hasOwn(b, key)) differences.push({ field: child, saved: show(a[key]), fresh: "absent" });
        else if (!Object.hasOwn(a, key))
          differences.push({ field: child, saved: "absent", fresh: show(b[key]) });
        else walk(a[key], b[key], child);
      }
      return;
    }
    if (
      path === "request.body.scheduled_at" &&
      saved.kind === "schedule" &&
      at !== undefined &&
      typeof a === "string" &&
      typeof b === "string" &&
      sameInstant(a, at.reviewed) &&
      sameInstant(b, at.fresh)
    ) {
      atNow = true;
      return;
    }
    differences.push({ field: path, saved: show(a), fresh: show(b) });
  };
  walk(saved.request.body, fresh.request.body, "request.body");
  return { differences, atNow };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  return x.size === new Set(b).size && b.every((v) => x.has(v));
}

function differs(where: string, field: string, saved: string, fresh: string): Diagnostic {
  return {
    severity: "error",
    code: "apply.plan-differs",
    message: `${where}: ${field} differs (saved: ${saved}; fresh: ${fresh})`,
    hint: HINT,
  };
}

function describeDifference(d: Difference): string {
  return `${d.field}: saved ${d.saved}, fresh ${d.fresh}`;
}

function describeProject(p: ProjectPlan): string {
  return `project ${p.project_id} from ${p.file}`;
}

/** Why the fresh plan has no such action: the project is gone, unreadable, or needs nothing now. */
function absentAction(project: ProjectPlan | undefined): string {
  if (project === undefined) return "absent (the project is not in the files)";
  if (project.live === null) return "absent (the project cannot be read)";
  return `absent (live status is ${project.live.status}, updated_at ${project.live.updated_at})`;
}

/** A value for a message: JSON, cut to a readable length. */
function show(v: unknown): string {
  const text = v === undefined ? "absent" : JSON.stringify(v);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
