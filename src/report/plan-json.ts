/**
 * The plan document as JSON (`plan --out`, `plan --json`): the plan's own data, keys in a stable
 * order (the order of `src/plan/types.ts`, which is the schema's), free-form values (request bodies,
 * drift values, request counts by endpoint) with keys sorted, 2-space indent, a final newline. So
 * the same plan always gives the same bytes, whatever order the planner built its objects in.
 */
import { type DiagnosticJson, diagnosticJson } from "../diagnostics/json.js";
import type {
  Action,
  Drift,
  NamedRecord,
  Plan,
  PlanAudience,
  PlanSchedule,
  ProjectPlan,
  SendTotals,
} from "../plan/types.js";
import type { Loosening, PolicyRules } from "../policy/model.js";
import { emailPlanJson, itemCountsJson, replyRuleSetsJson } from "./email-json.js";

/** A project of the plan document: its diagnostics in their JSON shape. */
export type ProjectPlanJson = Omit<ProjectPlan, "diagnostics"> & {
  readonly diagnostics: readonly DiagnosticJson[];
};

/**
 * The plan document as written (`schemas/plan.schema.json`): the plan with every diagnostic in the
 * one JSON shape of `src/diagnostics/json.ts`.
 */
export type PlanJson = Omit<Plan, "projects" | "diagnostics" | "email" | "replies"> & {
  readonly projects: readonly ProjectPlanJson[];
  readonly diagnostics: readonly DiagnosticJson[];
  readonly email?: ReturnType<typeof emailPlanJson>;
  readonly replies?: ReturnType<typeof replyRuleSetsJson>;
};

/**
 * Renders the plan document: every item of the plan. Optional keys that are absent stay absent
 * (`email`: a run covering no email; `replies`: no covered project with reply rules).
 */
export function renderPlanJson(plan: Plan): string {
  return `${JSON.stringify(orderPlan(plan), null, 2)}\n`;
}

/** The plan with keys in document order (what {@link renderPlanJson} serialises). */
export function orderPlan(plan: Plan): PlanJson {
  return {
    format_version: plan.format_version,
    tool_version: plan.tool_version,
    created_at: plan.created_at,
    base_url: plan.base_url,
    ...(plan.organization_id === undefined ? {} : { organization_id: plan.organization_id }),
    ...(plan.commit === undefined ? {} : { commit: plan.commit }),
    files: plan.files.map((f) => ({ path: f.path, sha256: f.sha256, kind: f.kind })),
    targets: [...plan.targets],
    excludes: [...plan.excludes],
    policy:
      plan.policy === null
        ? null
        : {
            files: [...plan.policy.files],
            rules: sortKeys(plan.policy.rules) as PolicyRules,
            loosened: plan.policy.loosened.map((l) => ({
              rule: l.rule,
              from: sortKeys(l.from) as Loosening["from"],
              to: sortKeys(l.to) as Loosening["to"],
              by: l.by,
            })),
          },
    ...(plan.forecast === undefined ? {} : { forecast: plan.forecast }),
    ...(plan.budgets === undefined
      ? {}
      : {
          budgets: plan.budgets.map((b) => ({
            budget: b.budget,
            period_start: b.period_start,
            cap_cents: b.cap_cents,
            spent_cents: b.spent_cents,
            scheduled_cents: b.scheduled_cents,
            planned_cents: b.planned_cents,
            held: [...b.held],
          })),
        }),
    projects: plan.projects.map(orderProject),
    ...(plan.organizations === undefined
      ? {}
      : {
          organizations: plan.organizations.map((o) => ({
            organization:
              o.organization === null ? null : { id: o.organization.id, name: o.organization.name },
            state: o.state,
            projects: [...o.projects],
            summary: {
              projects: o.summary.projects,
              planned: o.summary.planned,
              deferred: o.summary.deferred,
              blocked: o.summary.blocked,
              drifted: o.summary.drifted,
              errors: o.summary.errors,
              warnings: o.summary.warnings,
            },
          })),
        }),
    ...(plan.email === undefined ? {} : { email: emailPlanJson(plan.email) }),
    ...(plan.replies === undefined ? {} : { replies: replyRuleSetsJson(plan.replies) }),
    diagnostics: plan.diagnostics.map(diagnosticJson),
    requests: {
      total: plan.requests.total,
      by_endpoint: sortKeys(plan.requests.by_endpoint) as Record<string, number>,
      naive: plan.requests.naive,
    },
    summary: {
      projects: plan.summary.projects,
      planned: plan.summary.planned,
      deferred: plan.summary.deferred,
      blocked: plan.summary.blocked,
      drifted: plan.summary.drifted,
      email_lists: itemCountsJson(plan.summary.email_lists),
      email_campaigns: itemCountsJson(plan.summary.email_campaigns),
      reply_rule_sets: itemCountsJson(plan.summary.reply_rule_sets),
      errors: plan.summary.errors,
      warnings: plan.summary.warnings,
    },
    totals: {
      overall: orderTotals(plan.totals.overall),
      by_organization: plan.totals.by_organization.map((t) => ({
        organization: t.organization === null ? null : named(t.organization),
        ...orderTotals(t),
      })),
    },
  };
}

function named(r: NamedRecord): NamedRecord {
  return { id: r.id, name: r.name };
}

function orderTotals(t: SendTotals): SendTotals {
  return {
    projects: t.projects,
    not_estimated: t.not_estimated,
    recipients: t.recipients,
    sms_segments: t.sms_segments,
    mms_messages: t.mms_messages,
    estimated_cost_cents: t.estimated_cost_cents,
  };
}

function orderAudience(a: PlanAudience): PlanAudience {
  return {
    organization: named(a.organization),
    contact_lists: a.contact_lists.map(named),
    suppression_lists: a.suppression_lists.map(named),
    ...(a.places === undefined ? {} : { places: a.places }),
  };
}

function orderSchedule(s: PlanSchedule): PlanSchedule {
  return { source: s.source, at: s.at, timezone: s.timezone, local: s.local, utc: s.utc };
}

function orderProject(p: ProjectPlan): ProjectPlanJson {
  return {
    address: p.address,
    file: p.file,
    project_id: p.project_id,
    name: p.name,
    desired: p.desired,
    live: p.live === null ? null : { status: p.live.status, updated_at: p.live.updated_at },
    drift: p.drift.map(orderDrift),
    actions: p.actions.map(orderAction),
    estimate:
      p.estimate === null
        ? null
        : {
            recipients: p.estimate.recipients,
            segments: p.estimate.segments,
            encoding: p.estimate.encoding,
            estimated_cost_cents: p.estimate.estimated_cost_cents,
          },
    audience: p.audience === null ? null : orderAudience(p.audience),
    schedule: p.schedule === null ? null : orderSchedule(p.schedule),
    sends: p.sends,
    guard:
      p.guard === null
        ? null
        : {
            max_failure_rate: p.guard.max_failure_rate,
            max_opt_out_rate: p.guard.max_opt_out_rate,
            min_sample: p.guard.min_sample,
          },
    diagnostics: p.diagnostics.map(diagnosticJson),
    notes: [...p.notes],
  };
}

function orderDrift(d: Drift): Drift {
  return {
    field: d.field,
    before: sortKeys(d.before),
    after: sortKeys(d.after),
    before_text: d.before_text,
    after_text: d.after_text,
    fix: d.fix,
  };
}

function orderAction(a: Action): Action {
  return {
    id: a.id,
    address: a.address,
    project_id: a.project_id,
    kind: a.kind,
    status: a.status,
    request: {
      method: a.request.method,
      path: a.request.path,
      body: sortKeys(a.request.body),
      idempotency_key: a.request.idempotency_key,
    },
    depends_on: [...a.depends_on],
    before: a.before,
    after: a.after,
    reason: a.reason,
    ...(a.block === undefined
      ? {}
      : { block: { reason: a.block.reason, fix: a.block.fix, codes: [...a.block.codes] } }),
    ...(a.waits_for === undefined ? {} : { waits_for: a.waits_for }),
  };
}

/** A copy of free-form JSON data with every object's keys sorted (code-unit order, like RFC 8785). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === "object" && value !== null) {
    // A null prototype keeps a key named `__proto__` an ordinary key.
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}
