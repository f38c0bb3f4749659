/** The shape every lint rule has, and the context rules read. */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { ProjectSpec } from "../model.js";

export interface LintContext {
  /** The current time, for rules about the schedule. */
  readonly now: Date;
}

/**
 * A lint rule: one concern, one project at a time. Pure: the clock comes from `context.now`.
 * Invariant: every diagnostic it returns has a range in the project's files.
 */
export type LintRule = (project: ProjectSpec, context: LintContext) => Diagnostic[];
