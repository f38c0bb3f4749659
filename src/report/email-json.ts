/**
 * The `email` and `replies` members of the plan and apply documents (schemas/plan.schema.json,
 * schemas/apply-result.schema.json, `$defs/emailPlan` of schemas/email.schema.json): the items with
 * every diagnostic in the one JSON shape. Keys in document order. Pure.
 */
import { diagnosticJson } from "../diagnostics/json.js";
import type { EmailApplyResult, ItemCounts, PlanEmail, ReplyRuleSetItem } from "../plan/items.js";

export function emailPlanJson(plan: PlanEmail) {
  return {
    available: plan.available,
    lists: plan.lists.map((l) => ({
      address: l.address,
      list_id: l.list_id,
      csv: l.csv,
      organization: l.organization,
      sha256: l.sha256,
      state: l.state,
      verdict: l.verdict,
      reason: l.reason,
      rows: l.rows,
      to_send: l.to_send,
      refused: l.refused,
      batches: l.batches,
      refused_by_code: l.refused_by_code,
      diagnostics: l.diagnostics.map(diagnosticJson),
      more: l.more,
    })),
    campaigns: plan.campaigns.map((c) => ({
      address: c.address,
      id: c.id,
      name: c.name,
      organization: c.organization,
      state: c.state,
      verdict: c.verdict,
      reason: c.reason,
      status: c.status,
      approval: c.approval,
      drift: c.drift,
      blockers: c.blockers,
      domain: c.domain,
      dashboard_steps: c.dashboard_steps,
      diagnostics: c.diagnostics.map(diagnosticJson),
    })),
    diagnostics: plan.diagnostics.map(diagnosticJson),
  };
}

export function emailApplyJson(result: EmailApplyResult) {
  return {
    plan: emailPlanJson(result.plan),
    lists: result.lists.map((l) => ({
      address: l.address,
      list_id: l.list_id,
      state: l.state,
      rows: l.rows,
      accepted: l.accepted,
      rejected: l.rejected,
      duplicates: l.duplicates,
      refused: l.refused,
      skipped: l.skipped,
      not_sent: l.not_sent,
      unknown: l.unknown,
      batches: l.batches,
      diagnostics: l.diagnostics.map(diagnosticJson),
    })),
    results_files: result.results_files,
  };
}

export function replyRuleSetsJson(sets: readonly ReplyRuleSetItem[]) {
  return sets.map((r) => ({
    address: r.address,
    project_id: r.project_id,
    file: r.file,
    organization: r.organization,
    rules: r.rules.map((rule) => ({
      name: rule.name,
      match: rule.match,
      languages: [...rule.languages],
      max_per_conversation: rule.max_per_conversation,
    })),
    max_per_conversation_per_day: r.max_per_conversation_per_day,
    numbers: [...r.numbers],
    verdict: r.verdict,
    reason: r.reason,
  }));
}

export function itemCountsJson(c: ItemCounts): ItemCounts {
  return { planned: c.planned, ready: c.ready, blocked: c.blocked, skipped: c.skipped };
}
