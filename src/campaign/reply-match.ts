/**
 * Which rule of a project answers an inbound text: the first, in file order, with a keyword the text
 * contains as whole words (case- and accent-insensitive, any of its languages) or whose pattern
 * matches the text with accents removed. Pure.
 */

import { compilePattern, foldAccents, hasPhrase } from "../message/reply-words.js";
import type { RepliesSpec, ReplyRuleSpec } from "./model.js";

/** The rule that matched, its position, and what matched (a keyword with its language, or the pattern). */
export interface RuleMatch {
  readonly rule: ReplyRuleSpec;
  readonly index: number;
  readonly by: { readonly keyword: string; readonly language: string } | { readonly pattern: string };
}

export function matchRule(replies: RepliesSpec, text: string): RuleMatch | null {
  for (const [index, rule] of replies.rules.entries()) {
    if (rule.keywords !== undefined)
      for (const [language, words] of Object.entries(rule.keywords))
        for (const keyword of words)
          if (hasPhrase(text, keyword)) return { rule, index, by: { keyword, language } };
    if (rule.pattern !== undefined) {
      const compiled = compilePattern(rule.pattern);
      if (compiled.ok && compiled.regex.test(foldAccents(text)))
        return { rule, index, by: { pattern: rule.pattern } };
    }
  }
  return null;
}
