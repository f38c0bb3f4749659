/**
 * The judge's reply part (issue 33): one item per covered project with reply rules, the rules
 * `replies run` answers its inbounds with: the projects and numbers the worker itself takes
 * (src/replies/projects.ts `replyProjects`), so the plan shows what the worker will do. Pure. Reply
 * rules are checked by validate; a plan is made only of files without errors, so every set is
 * `ready`: apply sends nothing for it.
 */
import type { ProjectSpec } from "../campaign/model.js";
import { replyProjects } from "../replies/projects.js";
import type { ReplyRuleSetItem } from "./items.js";

export function replyRuleSets(projects: readonly ProjectSpec[]): ReplyRuleSetItem[] {
  return replyProjects(projects).map(({ address, id, file, organization, replies, numbers }) => {
    const names = replies.rules.map((r) => r.name);
    return {
      address,
      project_id: id,
      file,
      organization,
      rules: replies.rules.map((r) => ({
        name: r.name,
        match: r.pattern === undefined ? "keywords" : "pattern",
        languages: r.keywords === undefined ? [] : Object.keys(r.keywords),
        max_per_conversation: r.maxPerConversation,
      })),
      max_per_conversation_per_day: replies.maxPerConversationPerDay,
      numbers,
      verdict: "ready",
      reason:
        `replies run answers its inbounds with ${names.length} rule${names.length === 1 ? "" : "s"} (${names.join(", ")})` +
        (numbers.length === 0
          ? "; no E.164 phone number maps a webhook event to it, so its inbounds are answered by polling"
          : ""),
    };
  });
}
