/**
 * Rule: a message sent without the platform's opt-out footer must itself tell the contact how to
 * opt out: it must contain the word STOP (any case), or for a template instance the wording its
 * language accepts (src/message/opt-out-wording.ts). Carriers and the CTIA handbook expect it. It is
 * judged on every text a contact can receive (src/message/renderings.ts): wording that only a tag's
 * fallback carries is lost for every contact who has a value for that tag.
 */
import { acceptedOptOutWording, hasOptOutWording } from "../../message/opt-out-wording.js";
import { describeContact, renderingWithout } from "../../message/renderings.js";
import type { LintRule } from "./rule.js";

export const optOutRule: LintRule = (project, context) => {
  if (project.message === undefined || project.optOutFooter === true) return [];
  // A template instance's variant is judged by its language's wording; any other message by English's (STOP).
  const language = project.origin?.language ?? "en";
  const missing = renderingWithout(project.message, project.mergeDefaults, (text) =>
    hasOptOutWording(text, language, context.optOutWording),
  );
  if (missing === undefined) return [];
  const who = missing.valued.length === 0 ? "" : ` that ${describeContact(missing)} receives`;
  return [
    {
      severity: "error",
      code: "lint.opt-out-missing",
      message: `${project.address}: the message${who} has no opt-out language and the opt-out footer is off`,
      range: project.locate(["message"]),
      hint:
        missing.valued.length === 0
          ? language === "en"
            ? 'add opt-out wording such as "Reply STOP to opt out", or set `opt_out_footer: true`'
            : `add opt-out wording in ${language}, one of: ${acceptedOptOutWording(
                language,
                context.optOutWording,
              )
                .map((p) => `"${p}"`)
                .join(", ")}; or set \`opt_out_footer: true\``
          : "write the opt-out wording in the message itself, not in a merge tag's fallback (a contact with a value never sees the fallback), or set `opt_out_footer: true`",
    },
  ];
};
