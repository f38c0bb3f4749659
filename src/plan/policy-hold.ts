/**
 * What a policy violation does to a plan: the project's test and schedule actions are blocked (with
 * the violations' codes), the violations join the project's diagnostics, and a pause goes ahead
 * untouched (stopping a send is never against policy). Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { combineBlocks } from "./blocks.js";
import type { Action, Block, ProjectPlan } from "./types.js";

export function holdForPolicy(project: ProjectPlan, violations: readonly Diagnostic[]): ProjectPlan {
  if (violations.length === 0) return project;
  const block: Block = {
    reason: `against the policy: ${violations.map((v) => v.code.slice("policy.".length)).join(", ")}`,
    fix: "change the campaign file to meet the policy (see the policy errors), or change the policy",
    codes: violations.map((v) => v.code),
  };
  const actions = project.actions.map((action) => holdAction(action, block));
  return { ...project, actions, diagnostics: [...project.diagnostics, ...violations] };
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
