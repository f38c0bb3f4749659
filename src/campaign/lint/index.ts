/**
 * Lint rules over a loaded, schema-valid campaign: content (opt-out language, URL shorteners, merge
 * tags, segments), schedule (past, quiet hours, daily cap bypass) and link tracking. `after` ordering
 * is checked by the loader; anything that needs live state by the planner.
 * Pure: the clock is passed in.
 */
import { compareDiagnostics, type Diagnostic } from "../../diagnostics/diagnostic.js";
import type { Campaign } from "../model.js";
import { linkTrackingRule } from "./link-tracking.js";
import { mergeTagsRule } from "./merge-tags.js";
import { optOutRule } from "./opt-out.js";
import type { LintContext, LintRule } from "./rule.js";
import { dailyCapBypassRule, quietHoursRule, schedulePastRule } from "./schedule.js";
import { segmentGrowthRule } from "./segments.js";
import { urlShortenersRule } from "./url-shorteners.js";

export type { LintContext, LintRule } from "./rule.js";

/** Every rule, in the order their findings are reported for one position. */
export const LINT_RULES: readonly LintRule[] = [
  mergeTagsRule,
  optOutRule,
  urlShortenersRule,
  segmentGrowthRule,
  linkTrackingRule,
  schedulePastRule,
  quietHoursRule,
  dailyCapBypassRule,
];

/** Runs every rule on every project; diagnostics come back sorted by file and position. */
export function lintCampaign(campaign: Campaign, context: LintContext): Diagnostic[] {
  return campaign.projects
    .flatMap((project) => LINT_RULES.flatMap((rule) => rule(project, context)))
    .sort(compareDiagnostics);
}
