/**
 * Ordering between projects (`after`) and how a status spreads along it. Pure.
 *
 * - Every action of a project depends on every action of each project it is ordered `after`. A
 *   named project with no actions has nothing to wait for itself, so the dependency passes through
 *   it to the projects *it* is ordered after (transitively): the declared order holds even when a
 *   middle project is already where the file wants it.
 * - A dependency that is blocked blocks its dependents ("waits for X, which is blocked"); one that is
 *   deferred (waiting for a test approval) defers its planned dependents, whose keys are then null.
 * - Actions on a dependency cycle (which the loader reports as `campaign.after-cycle`) are blocked,
 *   so apply never waits forever.
 */
import type { ProjectSpec } from "../campaign/model.js";
import type { Action } from "./types.js";

/**
 * For each project, the ids of the other projects' actions it waits for. `actionsOf` gives the
 * action ids of a covered project (an empty list when it has none; `undefined` when not covered).
 */
export function afterDependencies(
  projects: readonly ProjectSpec[],
  actionsOf: (address: string) => readonly string[] | undefined,
): Map<string, string[]> {
  const byAddress = new Map(projects.map((p) => [p.address, p]));
  const result = new Map<string, string[]>();
  for (const project of projects) {
    if (actionsOf(project.address) === undefined) continue;
    const found = new Set<string>();
    const seen = new Set<string>([project.address]);
    const walk = (addresses: readonly string[]): void => {
      for (const address of addresses) {
        if (seen.has(address)) continue;
        seen.add(address);
        const ids = actionsOf(address);
        if (ids === undefined) continue;
        if (ids.length > 0) for (const id of ids) found.add(id);
        else walk(byAddress.get(address)?.after ?? []);
      }
    };
    walk(project.after);
    result.set(project.address, [...found]);
  }
  return result;
}

/**
 * Spreads blocked and deferred statuses along `depends_on`: each action settled once its
 * dependencies are (`settle`), so an action's outcome is a function of its own status and its
 * dependencies' settled ones, whatever order the actions come in (a project judged alone, as
 * apply's re-check before a send judges it, settles exactly as within the whole plan). Actions on
 * a cycle are blocked (`campaign.after-cycle`) and block what waits for them. Returns new actions in
 * the same order; the input is not modified.
 */
export function propagate(actions: readonly Action[]): Action[] {
  const byId = new Map(actions.map((a) => [a.id, a]));
  const cyclic = onCycles(actions);
  const settled = new Map<string, Action>();
  const settleOne = (action: Action): Action => {
    const known = settled.get(action.id);
    if (known !== undefined) return known;
    const out = settle(action, cyclic.has(action.id), (id) => {
      const dependency = byId.get(id);
      return dependency === undefined ? undefined : settleOne(dependency);
    });
    settled.set(action.id, out);
    return out;
  };
  return actions.map(settleOne);
}

/**
 * One action given its dependencies' settled actions (`dependency`: undefined for an id outside
 * the plan): blocked on a cycle, blocked by a blocked dependency (the first in `depends_on`
 * order), deferred by a deferred one when planned; else as it is.
 */
export function settle(
  action: Action,
  onCycle: boolean,
  dependency: (id: string) => Action | undefined,
): Action {
  if (action.status === "blocked") return action;
  if (onCycle)
    return {
      ...withoutWait(action),
      status: "blocked",
      block: {
        reason: "its `after` ordering forms a cycle, so it would wait for itself",
        fix: "remove one `after` entry of the cycle",
        codes: ["campaign.after-cycle"],
      },
    };
  return spread(
    action,
    action.depends_on.map(dependency).filter((a) => a !== undefined),
  );
}

function spread(action: Action, dependencies: readonly Action[]): Action {
  const blocker = dependencies.find((d) => d.status === "blocked");
  if (blocker !== undefined) {
    return {
      ...withoutWait(action),
      status: "blocked",
      block: {
        reason: `waits for ${blocker.id}, which is blocked`,
        fix: `unblock ${blocker.id} first: ${blocker.block?.fix ?? "see its reason"}`,
        codes: blocker.block?.codes ?? [],
      },
    };
  }
  const waiting = dependencies.find((d) => d.status === "deferred");
  if (waiting !== undefined && action.status === "planned") {
    return {
      ...action,
      status: "deferred",
      waits_for: `${waiting.id}, which waits for ${waiting.waits_for ?? "something outside our control"}`,
      request: { ...action.request, idempotency_key: null },
    };
  }
  return action;
}

/** A blocked action carries no `waits_for` (invariant of `Action`). */
function withoutWait(action: Action): Action {
  const { waits_for: _, ...rest } = action;
  return rest;
}

/** Ids of actions that can reach themselves through `depends_on`. */
export function onCycles(actions: readonly Action[]): Set<string> {
  const byId = new Map(actions.map((a) => [a.id, a]));
  const cyclic = new Set<string>();
  for (const start of actions) {
    const stack = [...start.depends_on];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const id = stack.pop();
      if (id === undefined || seen.has(id)) continue;
      if (id === start.id) {
        cyclic.add(start.id);
        break;
      }
      seen.add(id);
      stack.push(...(byId.get(id)?.depends_on ?? []));
    }
  }
  return cyclic;
}
