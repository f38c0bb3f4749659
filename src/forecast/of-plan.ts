/**
 * The forecast of a plan (`plan --forecast`): the campaign's declared capacity and every project
 * the plan leaves scheduled, with the plan's own figures (recipients, segments, estimate, the
 * schedule apply would set or the live one), judged at the plan's clock. Pure.
 */
import type { ProjectSpec } from "../campaign/model.js";
import type { Plan } from "../plan/types.js";
import type { SendWindow } from "../text/send-window.js";
import { forecast } from "./forecast.js";
import { capacityOfProjects, forecastProjectOf } from "./from-spec.js";
import { pacificDayOf } from "./pacific.js";
import type { Capacity, Forecast, ForecastProject } from "./types.js";

/** What the caller knows beyond the plan. */
export interface ForecastOfPlanOptions {
  /** The policy forbids `daily_cap_bypass`: no fix offers it. */
  readonly bypassForbidden?: boolean;
  /**
   * Messages sent so far by live projects that are sending (status `active`), by project id, from
   * the statistics (`messages_sent`); a sending project missing here is taken to have sent none.
   */
  readonly sent?: ReadonlyMap<string, number>;
}

/**
 * Forecasts `plan` for the campaign's `specs`. `sendWindow` is the policy's send window when it has
 * one (else the quiet-hours default). Projects the plan could not read are left out.
 */
export function forecastOfPlan(
  plan: Plan,
  specs: readonly ProjectSpec[],
  sendWindow?: SendWindow,
  options: ForecastOfPlanOptions = {},
): Forecast {
  const nowMs = Date.parse(plan.created_at);
  const byAddress = new Map(specs.map((s) => [s.address, s]));
  const capacity = capacityOfProjects(specs);
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
              capacity.capacity,
              scheduledAtMs,
              nowMs,
            )
          : {}),
      },
      nowMs,
    );
    if (project !== undefined) projects.push(project);
  }
  const judged = forecast({
    projects,
    capacity: capacity.capacity,
    nowMs,
    bypassForbidden: options.bypassForbidden === true,
    ...(sendWindow === undefined ? {} : { sendWindow }),
  });
  return { ...judged, diagnostics: [...capacity.diagnostics, ...judged.diagnostics] };
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
  capacity: Capacity,
  startMs: number | undefined,
  nowMs: number,
): { readonly sent: number; readonly sentToday: number } {
  const whole = Math.min(Math.max(0, Math.floor(sent)), estimate.recipients);
  const midnight = pacificDayOf(nowMs).startMs;
  if (startMs !== undefined && !Number.isNaN(startMs) && startMs >= midnight)
    return { sent: whole, sentToday: whole };
  const perMinute = capacity.throughput[spec.channel ?? "10dlc"] / Math.max(1, estimate.segments ?? 1);
  return { sent: whole, sentToday: Math.min(whole, Math.floor((perMinute * (nowMs - midnight)) / 60_000)) };
}
