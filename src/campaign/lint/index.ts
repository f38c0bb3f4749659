/**
 * Lint rules over a loaded, schema-valid campaign: content (opt-out language, URL shorteners, merge
 * tags, segments), schedule (past, quiet hours, daily cap bypass), link tracking and `after` ordering.
 * Pure: the clock is passed in.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { Campaign } from "../model.js";

export interface LintContext {
  /** The current time, for rules about the schedule. */
  readonly now: Date;
}

export function lintCampaign(campaign: Campaign, context: LintContext): Diagnostic[] {
  // Filled in by the lint rules (message and schedule areas); kept as the single entry point.
  void campaign;
  void context;
  return [];
}
