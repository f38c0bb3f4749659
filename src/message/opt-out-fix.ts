/**
 * The opt-out wording the hints of `lint.opt-out-missing` and `policy.require-opt-out-language`
 * suggest, as the fix both carry: added at the end of the message. One place for both rules.
 */
import type { DiagnosticFix } from "../diagnostics/diagnostic.js";

/** The wording the policy and the lint ask for ("Reply STOP" is an instruction, not just the word). */
export const OPT_OUT_WORDING = "Reply STOP to opt out";

/** Adds {@link OPT_OUT_WORDING} at the end of the message (after a space). */
export const OPT_OUT_FIX: DiagnosticFix = {
  title: `Add "${OPT_OUT_WORDING}"`,
  edit: "append-text",
  text: OPT_OUT_WORDING,
};
