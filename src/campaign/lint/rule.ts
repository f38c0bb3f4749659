/** The shape every lint rule has, and the context rules read. */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { ListPlaces } from "../../jurisdictions/index.js";
import type { OptOutWording } from "../../message/opt-out-wording.js";
import type { ProjectSpec } from "../model.js";

export interface LintContext {
  /**
   * The current time, for rules about the schedule; null skips them (`plan` judges a past schedule
   * itself, by the API's clock, and only where a schedule would be sent).
   */
  readonly now: Date | null;
  /** Which clock `now` was read from, named in messages. Default: "the system clock". */
  readonly clock?: string;
  /** Opt-out wording a policy accepts beyond the built-in per language (`opt_out_wording`). */
  readonly optOutWording?: OptOutWording;
  /**
   * Where contact lists' recipients live (the policy's `places:`): quiet hours are judged in every
   * zone of a project's lists. Absent: each send is judged in its schedule's zone.
   */
  readonly places?: readonly ListPlaces[];
}

/**
 * A lint rule: one concern, one project at a time. Pure: the clock comes from `context.now`.
 * Invariant: every diagnostic it returns has a range in the project's files. The list is the
 * caller's to read, not to change (a rule that finds nothing returns `NO_FINDINGS`, shared).
 */
export type LintRule = (project: ProjectSpec, context: LintContext) => readonly Diagnostic[];

/**
 * What a rule that finds nothing returns: one frozen empty list, not a new one per rule and
 * project (most rules find nothing in most projects).
 */
export const NO_FINDINGS: readonly Diagnostic[] = Object.freeze([]);
