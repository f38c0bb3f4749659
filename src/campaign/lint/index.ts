/**
 * Lint rules over a loaded, schema-valid campaign: content (opt-out language, URL shorteners, merge
 * tags, segments, non-GSM and invisible characters), schedule (past, offset, quiet hours, daily cap bypass),
 * link tracking, guard thresholds, and send times against `after` ordering. Unknown `after` names and cycles are
 * checked by the loader; anything that needs live state by the planner.
 * Pure: the clock is passed in.
 */
import { compareDiagnostics, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { addressIndex } from "../after-graph.js";
import type { CrossProject } from "../cross-project.js";
import type { Campaign, ProjectSpec } from "../model.js";
import { groupInstanceFindings } from "../template-findings.js";
import { relateToOrigin } from "../template-origin.js";
import { checkTemplateVariants } from "../template-variants.js";
import { afterOrderRule } from "./after-order.js";
import { deadlineBeforeScheduleRule } from "./deadline.js";
import { guardZeroRateRule } from "./guard.js";
import { invisibleCharactersRule } from "./invisible.js";
import { linkTrackingRule } from "./link-tracking.js";
import { mergeTagsRule } from "./merge-tags.js";
import { nonGsmCharacterRule } from "./non-gsm.js";
import { optOutRule } from "./opt-out.js";
import type { LintContext, LintRule } from "./rule.js";
import { dailyCapBypassRule, quietHoursRule, scheduleOffsetRule, schedulePastRule } from "./schedule.js";
import { segmentGrowthRule } from "./segments.js";
import { urlShortenersRule } from "./url-shorteners.js";

export type { LintContext, LintRule } from "./rule.js";

/** Every rule, in the order their findings are reported for one position. */
export const LINT_RULES: readonly LintRule[] = [
  mergeTagsRule,
  invisibleCharactersRule,
  nonGsmCharacterRule,
  optOutRule,
  urlShortenersRule,
  segmentGrowthRule,
  linkTrackingRule,
  schedulePastRule,
  scheduleOffsetRule,
  quietHoursRule,
  dailyCapBypassRule,
  guardZeroRateRule,
  deadlineBeforeScheduleRule,
];

/**
 * Runs every rule on every project, then the rules across projects; sorted by file and position.
 * A finding at a template's value for several instances is one (template-findings.ts).
 */
export function lintCampaign(campaign: Campaign, context: LintContext): Diagnostic[] {
  return groupInstanceFindings([
    ...lintProjects(campaign.projects, context),
    ...lintAcross(campaign.projects, context),
    ...checkTemplateVariants(campaign.templates ?? [], context.optOutWording),
  ]).sort(compareDiagnostics);
}

/** The rules of one project at a time (safe per file, on a worker thread); unsorted. */
export function lintProjects(projects: readonly ProjectSpec[], context: LintContext): Diagnostic[] {
  // Loops rather than nested flatMaps: this runs every rule on every project of a run, and most
  // rules find nothing (no array per rule and project to join, nor per project that has none).
  const out: Diagnostic[] = [];
  for (const project of projects) {
    let found: Diagnostic[] | undefined;
    for (const rule of LINT_RULES) {
      const more = rule(project, context);
      if (more.length === 0) continue;
      found ??= [];
      for (const d of more) found.push(d);
    }
    if (found === undefined) continue;
    for (const d of project.origin === undefined ? found : relateToOrigin(project, found)) out.push(d);
  }
  return out;
}

/** The rules across projects (they need every loaded file); unsorted. */
export function lintAcross(projects: readonly CrossProject[], context: LintContext): Diagnostic[] {
  // The one rule across projects reads `after` entries: none, nothing to index or check.
  const out: Diagnostic[] = [];
  if (!projects.some((p) => p.after.length > 0)) return out;
  const byAddress = addressIndex(projects);
  for (const project of projects) {
    if (project.after.length === 0) continue;
    for (const d of relateToOrigin(project, afterOrderRule(project, byAddress, context))) out.push(d);
  }
  return out;
}
