/**
 * The view of `campaignctl replies plan`: one JSON document with `--json`
 * (schemas/replies-plan.schema.json), else the plan in words: what would be answered by which rule,
 * what was answered already, the opt-outs, the unmatched inbounds listed for a person to read, the
 * limits reached, and the cost. The format is chosen once, here.
 */
import type { PlannedInbound, PlanVerdict, ReplyPlan } from "../replies/plan.js";

const HEADINGS: Readonly<Record<PlanVerdict, string>> = {
  answer: "Would answer",
  answered: "Already answered (an answer of ours follows the inbound, or the record has it)",
  "refused-before": "Refused before (a 4xx, recorded, never sent again)",
  "opt-out": "Opt-outs (never answered)",
  unmatched: "Unmatched (no rule: for a person to read and answer)",
  limit: "Limit reached (not answered)",
  "no-rules": "Projects without reply rules in the files",
};

const ORDER: readonly PlanVerdict[] = [
  "answer",
  "unmatched",
  "opt-out",
  "answered",
  "refused-before",
  "limit",
  "no-rules",
];

export function renderRepliesPlan(plan: ReplyPlan, json: boolean): string {
  if (json) return `${JSON.stringify(plan, null, 2)}\n`;
  const lines: string[] = [];
  lines.push(
    `Replies plan: inbounds since ${plan.since} (the API's clock: now ${plan.now}), ${plan.conversations} conversation${plan.conversations === 1 ? "" : "s"}`,
  );
  if (plan.inbounds.length === 0) lines.push("", "No inbound messages in the window.");
  for (const verdict of ORDER) {
    const rows = plan.inbounds.filter((i) => i.verdict === verdict);
    if (rows.length === 0) continue;
    lines.push("", `${HEADINGS[verdict]}: ${rows.length}`);
    for (const r of rows) lines.push(`  ${row(r)}`);
  }
  lines.push("");
  if (plan.rules.length > 0) {
    lines.push("Answers per rule:");
    for (const r of plan.rules)
      lines.push(
        `  ${r.address} / ${r.rule}: ${r.answers} answer${r.answers === 1 ? "" : "s"}, ${r.segments} segment${r.segments === 1 ? "" : "s"}`,
      );
  }
  const cost = plan.cost_usd === null ? "" : ` (about $${plan.cost_usd.toFixed(4)})`;
  lines.push(
    `Cost: ${plan.totals.answer} answer${plan.totals.answer === 1 ? "" : "s"}, ${plan.segments} SMS segment${plan.segments === 1 ? "" : "s"}${cost}, billed to each project's organization`,
    `Requests: ${plan.requests} (the key allows 100 a minute; replies run reads each thread again before it answers)`,
  );
  return `${lines.join("\n")}\n`;
}

function row(r: PlannedInbound): string {
  const who = r.address ?? `project ${r.project_id}`;
  const rule = r.rule === null ? "" : ` -> ${r.rule}`;
  const matched = r.matched === null ? "" : ` [${r.matched}]`;
  const detail = r.detail === null ? "" : ` (${r.detail})`;
  const text = r.text.length > 80 ? `${r.text.slice(0, 77)}...` : r.text;
  return `${who}${rule}  ${r.received_at}  conversation ${r.conversation_id}  ${JSON.stringify(text)}${matched}${detail}`;
}
