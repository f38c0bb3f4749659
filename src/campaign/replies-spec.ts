/** A project's `replies:` as written -> {@link RepliesSpec}, with the documented defaults. Pure. */
import { DEFAULT_REPLY_MAX_PER_CONVERSATION, DEFAULT_REPLY_MAX_PER_DAY, type RepliesSpec } from "./model.js";
import type { RawReplies } from "./raw.js";

/** The language of keywords written as a plain list. */
export const ANY_LANGUAGE = "any";

export function repliesOf(raw: RawReplies): RepliesSpec {
  return {
    rules: raw.rules.map((r) => ({
      name: r.name,
      ...(r.keywords === undefined ? {} : { keywords: byLanguage(r.keywords) }),
      ...(r.pattern === undefined ? {} : { pattern: r.pattern }),
      answer: r.answer,
      maxPerConversation: r.max_per_conversation ?? DEFAULT_REPLY_MAX_PER_CONVERSATION,
    })),
    maxPerConversationPerDay: raw.max_per_conversation_per_day ?? DEFAULT_REPLY_MAX_PER_DAY,
  };
}

/** Keywords as a map by language; a plain list is {@link ANY_LANGUAGE}. */
function byLanguage(
  keywords: readonly string[] | Readonly<Record<string, readonly string[]>>,
): Readonly<Record<string, readonly string[]>> {
  return isList(keywords) ? { [ANY_LANGUAGE]: keywords } : keywords;
}

function isList(value: unknown): value is readonly string[] {
  return Array.isArray(value);
}
