/**
 * Rule: merge tag syntax, unknown fields and tags that can render empty, positioned inside the
 * message (codes `message.*`).
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { checkMergeTags, type MessageFinding } from "../../message/check-tags.js";
import { analysisOf, resultSlot } from "../../message/message-analysis.js";
import { type LintRule, NO_FINDINGS } from "./rule.js";

/** The slot of a message's findings in its analysis, by declared fields and defaults. */
const FINDINGS = resultSlot<readonly MessageFinding[]>();

/** The declared fields as one key (each prefixed with its length, so no two lists share it). */
const fieldKeys = new WeakMap<readonly string[], string>();

function fieldsKey(fields: readonly string[]): string {
  let key = fieldKeys.get(fields);
  if (key === undefined) {
    key = fields.map((f) => `${f.length}:${f}`).join("");
    fieldKeys.set(fields, key);
  }
  return key;
}

export const mergeTagsRule: LintRule = (project) => {
  const message = project.message;
  if (message === undefined) return NO_FINDINGS;
  const analysis = analysisOf(message);
  const found: readonly MessageFinding[] = analysis.remember(
    FINDINGS,
    fieldsKey(project.fields),
    analysis.valuesKey(project.mergeDefaults),
    "",
    () => checkMergeTags(analysis.parsed, { fields: project.fields, mergeDefaults: project.mergeDefaults }),
  );
  if (found.length === 0) return NO_FINDINGS;
  return found.map(
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
