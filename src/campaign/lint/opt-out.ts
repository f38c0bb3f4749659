/**
 * Rule: a message sent without the platform's opt-out footer must itself tell the contact how to
 * opt out: it must contain the word STOP (any case). Carriers and the CTIA handbook expect it.
 */
import type { LintRule } from "./rule.js";

const STOP_WORD = /\bstop\b/i;

export const optOutRule: LintRule = (project) => {
  if (project.message === undefined || project.optOutFooter === true) return [];
  if (STOP_WORD.test(project.message)) return [];
  return [
    {
      severity: "error",
      code: "lint.opt-out-missing",
      message: `${project.address}: the message has no opt-out language and the opt-out footer is off`,
      range: project.locate(["message"]),
      hint: 'add opt-out wording such as "Reply STOP to opt out", or set `opt_out_footer: true`',
    },
  ];
};
