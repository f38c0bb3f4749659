/** A project's `replies:` as written -> {@link RepliesSpec}, with the documented defaults. Pure. */
import {
  DEFAULT_REPLY_MAX_PER_CONVERSATION,
  DEFAULT_REPLY_MAX_PER_DAY,
  type ProjectSpec,
  type RepliesSpec,
} from "./model.js";
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

const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * The project's phone numbers written in E.164 (`+15035550102`): those a `message.replied` event's
 * `to` number maps to the project by (a number written by id or nickname cannot be).
 */
export function replyNumbers(project: Pick<ProjectSpec, "phoneNumbers">): string[] {
  return (project.phoneNumbers ?? []).filter((n) => E164.test(n));
}
