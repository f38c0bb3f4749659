/**
 * Rule: a message sent without the platform's opt-out footer must itself tell the contact how to
 * opt out: it must contain the word STOP (any case), or the wording its language accepts
 * (src/message/opt-out-wording.ts): a template instance's declared language, a plain project's the
 * language its wording is in. Carriers and the CTIA handbook expect it. It is
 * judged on every text a contact can receive (src/message/renderings.ts): wording that only a tag's
 * fallback carries is lost for every contact who has a value for that tag.
 */

import { analysisOf, resultSlot } from "../../message/message-analysis.js";
import { OPT_OUT_FIX } from "../../message/opt-out-fix.js";
import { acceptedOptOutWording, judgeOptOutWording, optOutLanguage } from "../../message/opt-out-wording.js";
import { describeContact, type PossibleRendering, renderingsOf } from "../../message/renderings.js";
import { type LintRule, NO_FINDINGS } from "./rule.js";

/** The slots in a message's analysis: its language by the policy's wording; the rendering without. */
const LANGUAGE = resultSlot<string>();
const MISSING = resultSlot<PossibleRendering | undefined>();

export const optOutRule: LintRule = (project, context) => {
  const message = project.message;
  if (message === undefined || project.optOutFooter === true) return NO_FINDINGS;
  const analysis = analysisOf(message);
  const extra = context.optOutWording;
  // A template instance's variant by its language's wording; a plain project's message by the
  // wording of the language it is in (English's STOP when no other language's wording is there).
  const language =
    project.origin?.language ??
    analysis.remember(LANGUAGE, extra, "", "", () =>
      optOutLanguage(message, undefined, extra, judgeOptOutWording),
    );
  const mergeDefaults = project.mergeDefaults;
  const missing = analysis.remember(MISSING, extra, language, analysis.valuesKey(mergeDefaults), () =>
    // Computed, not looked up in the memos by text: this analysis is the memo.
    renderingsOf(message, mergeDefaults).find((r) => !judgeOptOutWording(r.text, language, extra)),
  );
  if (missing === undefined) return NO_FINDINGS;
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
      ...(missing.valued.length === 0 ? { fixes: [OPT_OUT_FIX] } : {}),
    },
  ];
};
