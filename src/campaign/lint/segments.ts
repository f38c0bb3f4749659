/**
 * Rule: a message that is GSM-7 with its sample values but would gain segments, by switching to
 * UCS-2, for a contact whose value has one non-GSM character. Sample values: the first test contact
 * with merge values, else none (fallbacks). Counts include the opt-out footer. Skipped for MMS
 * (a project with media), where segments do not apply.
 *
 * Severity `info`, not `warning`: almost every GSM-7 message between 71 and 160 characters with a
 * merge tag trips it, and it is a cost fact rather than a mistake, so it must not fail `--strict`.
 */
import { withOptOutFooter } from "../../message/footer.js";
import { analysisOf, resultSlot } from "../../message/message-analysis.js";
import { type MergeValues, render } from "../../message/render.js";
import { type SegmentRisk, segmentRisk } from "../../message/segment-risk.js";
import type { ProjectSpec } from "../model.js";
import { type LintRule, NO_FINDINGS } from "./rule.js";

const NO_VALUES: Readonly<Record<string, string>> = {};

/** The values lint renders with: the first test contact that has merge values, else none. */
export function sampleValues(project: ProjectSpec): Readonly<Record<string, string>> {
  const contacts = project.test?.contacts;
  if (contacts === undefined) return NO_VALUES;
  for (const contact of contacts) if (contact.mergeValues !== undefined) return contact.mergeValues;
  return NO_VALUES;
}

/** The slot of a message's risk in its analysis, by footer, sample values and defaults. */
const RISK = resultSlot<SegmentRisk | null>();

function riskOf(message: string, values: MergeValues, mergeDefaults: MergeValues, footer: boolean) {
  const analysis = analysisOf(message);
  return analysis.remember(
    RISK,
    footer,
    analysis.valuesKey(values),
    analysis.valuesKey(mergeDefaults),
    () =>
      segmentRisk(render(analysis.parsed, values, mergeDefaults), (t) => withOptOutFooter(t, footer)) ?? null,
  );
}

const plural = (n: number) => `${n} segment${n === 1 ? "" : "s"}`;

/** A risk's finding after the project's address, and its hint: once per risk (risks are shared). */
const wordings = new WeakMap<SegmentRisk, { readonly message: string; readonly hint: string }>();

function wordingOf(risk: SegmentRisk): { readonly message: string; readonly hint: string } {
  let wording = wordings.get(risk);
  if (wording === undefined) {
    wording = {
      message:
        `${plural(risk.before.segments)} in GSM-7 with the sample values, but ` +
        `${plural(risk.after.segments)} in UCS-2 for a contact whose {{${risk.tag}}} has one non-GSM character (like "Đặng")`,
      hint: `keep the rendered message (footer included) to at most ${risk.before.segments === 1 ? 70 : 67 * risk.before.segments} characters so that it stays ${plural(risk.before.segments)} for every contact`,
    };
    wordings.set(risk, wording);
  }
  return wording;
}

export const segmentGrowthRule: LintRule = (project) => {
  if (project.message === undefined || (project.media?.length ?? 0) > 0) return NO_FINDINGS;
  const risk = riskOf(
    project.message,
    sampleValues(project),
    project.mergeDefaults,
    project.optOutFooter === true,
  );
  if (risk === null) return NO_FINDINGS;
  const wording = wordingOf(risk);
  return [
    {
      severity: "info",
      code: "lint.segment-growth",
      message: `${project.address}: ${wording.message}`,
      range: project.locateInMessage(risk.tagStart, risk.tagEnd),
      hint: wording.hint,
    },
  ];
};
