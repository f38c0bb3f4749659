/**
 * The lint rules about the text a contact receives, whoever sends it: a project's message and a
 * reply rule's answer (issue 34: an answer is a message, checked by the same rules with the same
 * codes, severities and positions; src/campaign/reply-checks.ts runs them on each answer). The
 * other message rules read what only a project's send has: merge tags (an answer is sent as
 * written, so any tag in it is `replies.answer-has-merge-tag`) and opt-out wording (owed by the
 * message that opens a conversation, not by an answer in a conversation the contact opened).
 */
import { invisibleCharactersRule } from "./invisible.js";
import { nonGsmCharacterRule } from "./non-gsm.js";
import type { LintRule } from "./rule.js";
import { segmentGrowthRule } from "./segments.js";
import { urlShortenersRule } from "./url-shorteners.js";

/** In the order their findings are reported for one position (as in `LINT_RULES`). */
export const TEXT_RULES: readonly LintRule[] = [
  invisibleCharactersRule,
  nonGsmCharacterRule,
  urlShortenersRule,
  segmentGrowthRule,
];
