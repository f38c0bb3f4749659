/**
 * What a policy violation (or a forecast finding the policy makes an error) does to a plan: the project's test and schedule actions are blocked (with
 * the violations' codes), the violations join the project's diagnostics, and a pause goes ahead
 * untouched (stopping a send is never against policy). Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { combineBlocks } from "./blocks.js";
import type { Action, Block, ProjectPlan } from "./types.js";

/**
 * `schedulesOnly`: hold the schedule alone (a budget: the test reaches the test contacts only, and
 * a reviewed test is what the send will need once the budget allows it).
 */
export function holdForPolicy(
  project: ProjectPlan,
  violations: readonly Diagnostic[],
  schedulesOnly = false,
): ProjectPlan {
  if (violations.length === 0) return project;
  const block: Block = {
    reason: `against the policy: ${violations.map((v) => shortCode(v.code)).join(", ")}`,
    fix: "change the campaign file to meet the policy (see the policy errors), or change the policy",
    codes: violations.map((v) => v.code),
  };
  const actions = project.actions.map((action) =>
    schedulesOnly && action.kind !== "schedule" ? action : holdAction(action, block),
  );
  return { ...project, actions, diagnostics: [...project.diagnostics, ...violations] };
}

/** `policy.send-window` -> `send-window`; a `forecast.*` code the policy made an error stays whole. */
function shortCode(code: string): string {
  return code.startsWith("policy.") ? code.slice("policy.".length) : code;
}

function holdAction(action: Action, block: Block): Action {
  switch (action.kind) {
    case "pause":
      return action;
    case "test":
    case "schedule": {
      const { waits_for: _waits, ...rest } = action;
      const combined = combineBlocks(action.block === undefined ? [block] : [action.block, block]);
      return { ...rest, status: "blocked", block: combined ?? block };
    }
  }
}
