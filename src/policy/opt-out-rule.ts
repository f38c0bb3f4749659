/**
 * The policy's `require_opt_out_language` over a project that sends (the caller decides that,
 * src/policy/sending.ts): with the footer off, every text a contact can receive must tell how to opt
 * out. English is judged by the instruction ("Reply STOP"); a template instance in another
 * language, or a plain project whose wording is in one, by that language's accepted wording and
 * the policy's `opt_out_wording` (src/message/opt-out-wording.ts). Pure.
 */
import type { ProjectSpec } from "../campaign/model.js";
import type { DiagnosticFix } from "../diagnostics/diagnostic.js";
import { OPT_OUT_FIX } from "../message/opt-out-fix.js";
import { baseLanguage, hasOptOutWording, optOutLanguage } from "../message/opt-out-wording.js";
import { describeContact, renderingWithout } from "../message/renderings.js";
import { STOP_INSTRUCTION } from "./help-rule.js";
import type { Policy } from "./model.js";

/** What the project's message lacks under the rule, at its `message`; undefined: nothing. */
export function optOutFinding(
  rules: Policy["rules"],
  project: ProjectSpec,
): { readonly message: string; readonly hint: string; readonly fixes: readonly DiagnosticFix[] } | undefined {
  if (
    rules.require_opt_out_language !== true ||
    project.message === undefined ||
    project.optOutFooter === true
  )
    return undefined;
  const language = optOutLanguage(project.message, project.origin?.language, rules.opt_out_wording);
  // Judged on every text a contact can receive, not the message as written.
  const missing = renderingWithout(project.message, project.mergeDefaults, (t) =>
    baseLanguage(language) === "en"
      ? STOP_INSTRUCTION.test(t)
      : hasOptOutWording(t, language, rules.opt_out_wording),
  );
  if (missing === undefined) return undefined;
  return missing.valued.length === 0
    ? {
        message:
          'the message does not tell the contact how to opt out ("Reply STOP to opt out") and the opt-out footer is off',
        hint: 'end the message with "Reply STOP to opt out", or set opt_out_footer: true',
        fixes: [OPT_OUT_FIX],
      }
    : {
        message: `the message that ${describeContact(missing)} receives does not tell them how to opt out ("Reply STOP to opt out"): only the tag's fallback does, and the opt-out footer is off`,
        hint: 'write "Reply STOP to opt out" in the message itself, not in a merge tag\'s fallback, or set opt_out_footer: true',
        fixes: [],
      };
}
