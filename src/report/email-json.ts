/**
 * The `email` member of the plan and apply documents (schemas/plan.schema.json,
 * schemas/apply-result.schema.json, `$defs/emailPlan`): the email plan with every diagnostic in the
 * one JSON shape. Keys in document order. Pure.
 */
import { diagnosticJson } from "../diagnostics/json.js";
import type { EmailApplyResult, EmailPlan } from "../email/email-plan.js";

export function emailPlanJson(plan: EmailPlan) {
  return {
    available: plan.available,
    lists: plan.lists.map((l) => ({
      address: l.address,
      list_id: l.list_id,
      csv: l.csv,
      sha256: l.sha256,
      state: l.state,
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
      state: c.state,
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
      batches: l.batches,
      diagnostics: l.diagnostics.map(diagnosticJson),
    })),
    results_files: result.results_files,
  };
}
