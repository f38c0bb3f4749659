/**
 * The forecast of a plan (`plan --forecast`): the campaign's declared capacity and every project
 * the plan leaves scheduled, with the plan's own figures (recipients, segments, estimate, the
 * schedule apply would set or the live one), judged at the plan's clock. Pure.
 */
import type { ProjectSpec } from "../campaign/model.js";
import type { SourceRange } from "../diagnostics/diagnostic.js";
import type { Plan } from "../plan/types.js";
import type { PolicyCapacity } from "../policy/model.js";
import { capDeclared } from "./capacity.js";
import { forecast } from "./forecast.js";
import { capacityOfProjects, forecastProjectOf } from "./from-spec.js";
import { pacificDayOf } from "./pacific.js";
import type { Capacity, Forecast, ForecastFinding, ForecastProject, SendWindowHours } from "./types.js";

/** What the caller knows beyond the plan. */
export interface ForecastOfPlanOptions {
  /** The policy forbids `daily_cap_bypass`: no fix offers it. */
  readonly bypassForbidden?: boolean;
  /**
   * Messages sent so far by live projects that are sending (status `active`), by project id, from
   * the statistics (`messages_sent`); a sending project missing here is taken to have sent none.
   */
  readonly sent?: ReadonlyMap<string, number>;
  /** The policy's capacity, which the files may only tighten (src/policy/capacity.ts). */
  readonly policyCapacity?: PolicyCapacity;
  /**
   * The policy has `forecast_errors`: a project whose brand has no daily cap declared (by the policy
   * or a file) is an error `forecast.capacity-unknown`, never judged at the default cap. `range`: the
   * rule, for `related`.
   */
  readonly capacityRequired?: { readonly range?: SourceRange };
}

/**
 * Forecasts `plan` for the campaign's `specs`. `sendWindow` is the policy's send window when it has
 * one (else the quiet-hours default). Projects the plan could not read are left out.
 */
export function forecastOfPlan(
  plan: Plan,
  specs: readonly ProjectSpec[],
  sendWindow?: SendWindowHours,
  options: ForecastOfPlanOptions = {},
): Forecast {
  const nowMs = Date.parse(plan.created_at);
  const byAddress = new Map(specs.map((s) => [s.address, s]));
  const capacity = capacityOfProjects(specs, options.policyCapacity);
  const projects: ForecastProject[] = [];
  for (const p of plan.projects) {
    const spec = byAddress.get(p.address);
    if (spec === undefined || p.estimate === null) continue;
    const scheduledAtMs =
      p.schedule?.utc === null || p.schedule === null ? undefined : Date.parse(p.schedule.utc);
    const project = forecastProjectOf(
      spec,
      {
        recipients: p.estimate.recipients,
        segmentsPerMessage: p.estimate.segments ?? 1,
        estimatedCostCents: p.estimate.estimated_cost_cents,
        ...(p.audience?.organization?.name === undefined || p.audience.organization.name === null
          ? {}
          : { organization: p.audience.organization.name }),
        ...(scheduledAtMs === undefined || Number.isNaN(scheduledAtMs) ? {} : { scheduledAtMs }),
        ...(p.live?.status === "active"
          ? sentSoFar(
              options.sent?.get(p.project_id) ?? 0,
              p.estimate,
              spec,
              // An upper bound of today's share: at the fastest rate a send may go.
              capacity.fastest,
              scheduledAtMs,
              nowMs,
            )
          : {}),
      },
      nowMs,
    );
    if (project !== undefined) projects.push(project);
  }
  const input = {
    projects,
    capacity: capacity.capacity,
    nowMs,
    bypassForbidden: options.bypassForbidden === true,
    ...(sendWindow === undefined ? {} : { sendWindow }),
  };
  const judged = forecast(input);
  // A file's slower throughput is the timeline shown, but it cannot hide a cap: the findings at the
  // fastest rate a send may go (the policy's) are findings too.
  const slowed = (["10dlc", "toll-free"] as const).filter(
    (c) => capacity.fastest[c] !== capacity.capacity.throughput[c],
  );
  const fast = slowed.some((c) => projects.some((p) => (p.channel ?? "10dlc") === c))
    ? forecast({ ...input, capacity: { ...capacity.capacity, throughput: capacity.fastest } }).findings
    : [];
  const has = new Set(judged.findings.map((f) => `${f.address}\u0000${f.diagnostic.code}`));
  const atFastest = fast
    .filter((f) => !has.has(`${f.address}\u0000${f.diagnostic.code}`))
    .map((f) => ({
      ...f,
      diagnostic: {
        ...f.diagnostic,
        message: `${f.diagnostic.message} (at the fastest throughput a send may go, ${slowed.map((c) => `${c} ${capacity.fastest[c]}`).join(", ")} segments a minute; a campaign file's slower throughput cannot hide it)`,
      },
    }));
  const unknown =
    options.capacityRequired === undefined
      ? []
      : capacityUnknown(projects, capacity.capacity, options.capacityRequired);
  const findings = [...unknown, ...judged.findings, ...atFastest];
  return {
    ...judged,
    findings,
    diagnostics: [...capacity.diagnostics, ...findings.map((f) => f.diagnostic)],
  };
}

/** Each project whose brand has no declared daily cap: an error (the default cap is not judged by). */
function capacityUnknown(
  projects: readonly ForecastProject[],
  capacity: Capacity,
  rule: { readonly range?: SourceRange },
): ForecastFinding[] {
  return projects
    .filter(
      (p) => !capDeclared(capacity, [...(p.brand === undefined ? [] : [p.brand]), ...(p.brandNames ?? [])]),
    )
    .map((p) => {
      const range = p.ranges?.at ?? p.ranges?.key;
      const brand = p.brandNames?.at(-1) ?? p.brand;
      return {
        address: p.address,
        diagnostic: {
          severity: "error" as const,
          code: "forecast.capacity-unknown" as const,
          message: `${p.address}: the daily cap of brand ${brand === undefined ? "(none)" : `\`${brand}\``} is not declared, so the policy's forecast_errors cannot judge the send: a cap that is not known is never taken as a pass`,
          ...(range === undefined ? {} : { range }),
          ...(rule.range === undefined
            ? {}
            : { related: [{ message: "the policy's rule forecast_errors", range: rule.range }] }),
          hint: `declare the brand's daily_cap under \`capacity.brands\` in the policy file (the organization's truth; see docs/policy.md#capacity), or \`daily_cap: none\` for a brand no carrier caps`,
        },
      };
    });
}

/**
 * A sending project's messages so far, and of them those of the clock's Pacific day (they count
 * against today's cap). The API counts no messages per day: when the send began before today's
 * Pacific midnight, today's share is taken as what its throughput could have sent since then, at
 * most all it sent (an upper bound, so the cap is never under-counted).
 */
function sentSoFar(
  sent: number,
  estimate: { readonly recipients: number; readonly segments: number | null },
  spec: ProjectSpec,
  throughput: Capacity["throughput"],
  startMs: number | undefined,
  nowMs: number,
): { readonly sent: number; readonly sentToday: number } {
  const whole = Math.min(Math.max(0, Math.floor(sent)), estimate.recipients);
  const midnight = pacificDayOf(nowMs).startMs;
  if (startMs !== undefined && !Number.isNaN(startMs) && startMs >= midnight)
    return { sent: whole, sentToday: whole };
  const perMinute = throughput[spec.channel ?? "10dlc"] / Math.max(1, estimate.segments ?? 1);
  return { sent: whole, sentToday: Math.min(whole, Math.floor((perMinute * (nowMs - midnight)) / 60_000)) };
}
