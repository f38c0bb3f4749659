/**
 * Rule: link tracking settings. The destination must be an https URL; a destination that is one
 * whole-URL merge tag (`{{website}}`) cannot be checked here and needs an https `fallback_url` for
 * contacts without the value; `param_field` must name a known field.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { knownFields } from "../../message/check-tags.js";
import { parseMergeTags } from "../../message/merge-tags.js";
import { didYouMean } from "../../text/did-you-mean.js";
import type { ProjectSpec } from "../model.js";
import { type LintRule, NO_FINDINGS } from "./rule.js";

function isHttpsUrl(value: string): boolean {
  // Merge tags inside a URL (a path or query value) are fine; check the URL with them blanked out.
  const parsed = parseMergeTags(value);
  const blanked = parsed.segments.map((s) => (s.kind === "literal" ? s.text : "x")).join("");
  if (!URL.canParse(blanked)) return false;
  return new URL(blanked).protocol === "https:";
}

/** True when the destination is exactly one merge tag: the whole URL comes from the contact. */
export function isWholeUrlTag(destination: string): boolean {
  const parsed = parseMergeTags(destination.trim());
  return parsed.problems.length === 0 && parsed.segments.length === 1 && parsed.segments[0]?.kind === "tag";
}

function notHttps(project: ProjectSpec, key: string, value: string): Diagnostic {
  return {
    severity: "error",
    code: "lint.link-tracking-not-https",
    message: `${project.address}: link tracking ${key} "${value}" is not an https URL`,
    range: project.locate(["link_tracking", key]),
    hint: "tracked links must point to an https:// address",
  };
}

export const linkTrackingRule: LintRule = (project) => {
  const tracking = project.linkTracking;
  if (tracking === undefined) return NO_FINDINGS;
  const out: Diagnostic[] = [];
  const wholeTag = isWholeUrlTag(tracking.destinationUrl);
  if (!wholeTag && !isHttpsUrl(tracking.destinationUrl))
    out.push(notHttps(project, "destination_url", tracking.destinationUrl));
  if (wholeTag && (tracking.fallbackUrl === undefined || tracking.fallbackUrl === "")) {
    out.push({
      severity: "error",
      code: "lint.link-tracking-fallback-required",
      message: `${project.address}: link tracking destination ${tracking.destinationUrl.trim()} is a whole-URL merge tag and has no fallback_url`,
      range: project.locate(["link_tracking", "destination_url"]),
      hint: "add `fallback_url: https://...` for contacts whose value is empty",
    });
  }
  if (tracking.fallbackUrl !== undefined && tracking.fallbackUrl !== "" && !isHttpsUrl(tracking.fallbackUrl))
    out.push(notHttps(project, "fallback_url", tracking.fallbackUrl));
  if (tracking.paramField !== undefined) {
    const known = knownFields(project.fields);
    if (!known.includes(tracking.paramField)) {
      const suggestion = didYouMean(tracking.paramField, known);
      out.push({
        severity: "error",
        code: "lint.link-tracking-unknown-param-field",
        message: `${project.address}: link tracking param_field "${tracking.paramField}" is not a known field`,
        range: project.locate(["link_tracking", "param_field"]),
        hint:
          (suggestion !== undefined ? `did you mean "${suggestion}"? ` : "") +
          "use a standard field or one declared under `fields`",
      });
    }
  }
  return out;
};
