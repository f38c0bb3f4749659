/**
 * Which rule of a project answers an inbound text: the first, in file order, with a keyword the text
 * contains as whole words (case- and accent-insensitive, any of its languages) or whose pattern
 * matches the text with accents removed (on RE2: linear time, see reply-pattern.ts). A pattern that
 * validate refuses never matches. Pure.
 */

import { compilePattern } from "../message/reply-pattern.js";
import { foldAccents, foldText } from "../message/reply-words.js";
import type { RepliesSpec, ReplyRuleSpec } from "./model.js";

/** The rule that matched, its position, and what matched (a keyword with its language, or the pattern). */
export interface RuleMatch {
  readonly rule: ReplyRuleSpec;
  readonly index: number;
  readonly by: { readonly keyword: string; readonly language: string } | { readonly pattern: string };
}

export function matchRule(replies: RepliesSpec, text: string): RuleMatch | null {
  // Folded once per inbound, not once per keyword: judging stays linear in the text.
  const words = ` ${foldText(text)} `;
  let accentless: string | undefined;
  for (const [index, rule] of replies.rules.entries()) {
    if (rule.keywords !== undefined)
      for (const [language, list] of Object.entries(rule.keywords))
        for (const keyword of list) {
          const k = foldText(keyword);
          if (k !== "" && words.includes(` ${k} `)) return { rule, index, by: { keyword, language } };
        }
    if (rule.pattern !== undefined) {
      const compiled = compilePattern(rule.pattern);
      accentless ??= foldAccents(text);
      if (compiled.ok && compiled.test(accentless)) return { rule, index, by: { pattern: rule.pattern } };
    }
  }
  return null;
}
