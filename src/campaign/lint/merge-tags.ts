/**
 * Rule: merge tag syntax, unknown fields and tags that can render empty, positioned inside the
 * message (codes `message.*`).
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { checkMergeTags } from "../../message/check-tags.js";
import type { LintRule } from "./rule.js";

export const mergeTagsRule: LintRule = (project) => {
  if (project.message === undefined) return [];
  return checkMergeTags(project.message, {
    fields: project.fields,
    mergeDefaults: project.mergeDefaults,
  }).map(
    (f): Diagnostic => ({
      severity: f.severity,
      code: f.code,
      message: `${project.address}: ${f.message}`,
      range: project.locateInMessage(f.start, f.end),
      ...(f.hint !== undefined ? { hint: f.hint } : {}),
      ...(f.suggestion !== undefined
        ? {
            fixes: [{ title: `Change to {{${f.suggestion}}}`, edit: "replace-text", text: f.suggestion }],
          }
        : {}),
    }),
  );
};
