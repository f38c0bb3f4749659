/**
 * The policy's `require_help` rule (issue 37 point 3; CTIA and the 10DLC programme require a HELP
 * answer): every project with reply rules (`for: replies`, the default), or every project that
 * sends (`for: sends`), answers the inbounds HELP and INFO with an answer that names the sender and
 * says how to stop ("Reply STOP to opt out"). The answer is a reply rule of the project like any
 * other, so `replies run` sends it through the same executor and exactly-once record. This file
 * holds the rule's value, what "tighter" means, its words and its judgement. Pure.
 */
import type { ProjectSpec, SpecPath } from "../campaign/model.js";
import { matchRule } from "../campaign/reply-match.js";

/** Which projects must answer HELP: those with reply rules, or every one that sends (`tested`, `scheduled`). */
export type HelpScope = "replies" | "sends";

/**
 * The rule's value. Invariants (the schema's): `sender`, when set, is non-empty; without it the
 * answer must name the project's organization (any name or id it goes by) or its brand as written.
 */
export interface HelpRule {
  readonly for?: HelpScope;
  readonly sender?: string;
}

/** The inbounds a HELP answer must answer, as contacts text them. */
export const HELP_WORDS = ["HELP", "INFO"] as const;

/**
 * An instruction to opt out: "Reply STOP", "Text STOP", "txt stop" (not just the word "stop", which
 * "Stop by our office" has too). One definition for a HELP answer and `require_opt_out_language`.
 */
export const STOP_INSTRUCTION = /\b(reply|text|txt|send|respond)(\s+with)?\s+["'“]?stop\b/i;

const SCOPE_RANK: Readonly<Record<HelpScope, number>> = { replies: 0, sends: 1 };

/** Is `next` at least as strict: a scope covering as many projects, and the same sender (or one where there was none)? */
export function helpAtLeastAsStrict(next: HelpRule | undefined, current: HelpRule | undefined): boolean {
  if (current === undefined) return true;
  if (next === undefined) return false;
  return (
    SCOPE_RANK[next.for ?? "replies"] >= SCOPE_RANK[current.for ?? "replies"] &&
    (current.sender === undefined || next.sender === current.sender)
  );
}

/** `every project that sends, naming "Riverside Democrats"`. */
export function helpRuleText(rule: HelpRule | undefined): string {
  if (rule === undefined) return "off";
  const who =
    (rule.for ?? "replies") === "sends" ? "every project that sends" : "every project with reply rules";
  return `${who}, naming ${rule.sender === undefined ? "its organization or brand" : JSON.stringify(rule.sender)}`;
}

/** One shortfall of a project's HELP answer: where it points, what is wrong, how to fix it. */
export interface HelpFinding {
  readonly path: SpecPath;
  readonly message: string;
  readonly hint: string;
}

const EXAMPLE = (sender: string) =>
  `{name: help, keywords: [help, info], answer: "${sender}: get-out-the-vote texts. Reply STOP to opt out."}`;

/**
 * What `project` lacks under `rule`: nothing when the rule does not cover it. `organization` holds
 * every name and id its organization goes by (empty when unknown); `sends`: the project still tests
 * or sends (src/policy/sending.ts), for `for: sends`.
 */
export function helpFindings(
  rule: HelpRule,
  project: ProjectSpec,
  organization: readonly string[],
  sends: boolean,
): HelpFinding[] {
  const covered = project.replies !== undefined || ((rule.for ?? "replies") === "sends" && sends);
  if (!covered) return [];
  const names =
    rule.sender !== undefined
      ? [rule.sender]
      : [...organization, ...(project.brand === undefined ? [] : [project.brand])];
  const sender = names[0] ?? "the sender";
  if (project.replies === undefined)
    return [
      {
        path: ["state"],
        message: `the project sends with no reply rules, and the policy requires every project that sends to answer ${HELP_WORDS.join(" and ")} with the sender's name and how to stop`,
        hint: `add replies: {rules: [${EXAMPLE(sender)}]} to the project or to defaults`,
      },
    ];
  // The words answered by each rule (none: -1), so one rule answering both is one finding.
  const byRule = new Map<number, string[]>();
  for (const word of HELP_WORDS) {
    const index = matchRule(project.replies, word)?.index ?? -1;
    byRule.set(index, [...(byRule.get(index) ?? []), word]);
  }
  const out: HelpFinding[] = [];
  for (const [index, words] of byRule) {
    const said = words.join(" and ");
    const rule = project.replies.rules[index];
    if (rule === undefined) {
      out.push({
        path: ["replies", "rules"],
        message: `no reply rule answers ${said}, which the policy requires (with the sender's name and how to stop)`,
        hint: `add a rule such as ${EXAMPLE(sender)}`,
      });
      continue;
    }
    const lacks = [
      ...(names.some((n) => rule.answer.toLowerCase().includes(n.toLowerCase()))
        ? []
        : [`the sender's name (${names.map((n) => JSON.stringify(n)).join(" or ") || "none known"})`]),
      ...(STOP_INSTRUCTION.test(rule.answer) ? [] : ['how to stop ("Reply STOP to opt out")']),
    ];
    if (lacks.length > 0)
      out.push({
        path: ["replies", "rules", index, "answer"],
        message: `reply rule \`${rule.name}\` answers ${said} without ${lacks.join(" or ")}, which the policy requires in a HELP answer`,
        hint: `say both in the answer, e.g. "${sender}: get-out-the-vote texts. Reply STOP to opt out."`,
      });
  }
  return out;
}
