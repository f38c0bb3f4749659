/**
 * Rule: merge tag syntax, unknown fields and tags that can render empty, positioned inside the
 * message (codes `message.*`).
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { checkMergeTags, type MessageFinding } from "../../message/check-tags.js";
import { TextMemo } from "../../message/memo.js";
import { tagValuesKey } from "../../message/message-key.js";
import type { LintRule } from "./rule.js";

/** Each message's findings, remembered per declared fields and defaults (memo.ts). */
const findings = new TextMemo<readonly MessageFinding[]>();

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
  if (message === undefined) return [];
  const found = findings.get(
    message,
    `${fieldsKey(project.fields)}|${tagValuesKey(message, project.mergeDefaults)}`,
    () => checkMergeTags(message, { fields: project.fields, mergeDefaults: project.mergeDefaults }),
  );
  if (found.length === 0) return [];
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
