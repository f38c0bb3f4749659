/**
 * The forecast of a plan (`plan --forecast`): the campaign's declared capacity and every project
 * the plan leaves scheduled, with the plan's own figures (recipients, segments, estimate, the
 * schedule apply would set or the live one), judged at the plan's clock. Pure.
 */
import type { ProjectSpec } from "../campaign/model.js";
import type { Plan } from "../plan/types.js";
import { forecast } from "./forecast.js";
import { capacityOfProjects, forecastProjectOf } from "./from-spec.js";
import type { Forecast, ForecastProject, SendWindowHours } from "./types.js";

/**
 * Forecasts `plan` for the campaign's `specs`. `sendWindow` is the policy's send window when it has
 * one (else the quiet-hours default). Projects the plan could not read are left out.
 */
export function forecastOfPlan(
  plan: Plan,
  specs: readonly ProjectSpec[],
  sendWindow?: SendWindowHours,
): Forecast {
  const nowMs = Date.parse(plan.created_at);
  const byAddress = new Map(specs.map((s) => [s.address, s]));
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
      },
      nowMs,
    );
    if (project !== undefined) projects.push(project);
  }
  const capacity = capacityOfProjects(specs);
  const judged = forecast({
    projects,
    capacity: capacity.capacity,
    nowMs,
    ...(sendWindow === undefined ? {} : { sendWindow }),
  });
  return { ...judged, diagnostics: [...capacity.diagnostics, ...judged.diagnostics] };
}
