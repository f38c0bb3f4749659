/** Projected cost per organization and in total, from the projects' estimates. Pure. */
import type { CostLine, Forecast, ProjectForecast } from "./types.js";

const plus = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b);

/** Sums per organization (first-seen order) and in total; null when any estimate in it is unknown. */
export function costLines(projects: readonly ProjectForecast[]): Forecast["costs"] {
  const byOrg = new Map<string, { estimated: number | null; projected: number | null }>();
  let estimated: number | null = 0;
  let projected: number | null = 0;
  for (const p of projects) {
    const line = byOrg.get(p.organization) ?? { estimated: 0, projected: 0 };
    line.estimated = plus(line.estimated, p.estimatedCostCents);
    line.projected = plus(line.projected, p.projectedCostCents);
    byOrg.set(p.organization, line);
    estimated = plus(estimated, p.estimatedCostCents);
    projected = plus(projected, p.projectedCostCents);
  }
  const organizations: CostLine[] = [...byOrg].map(([organization, l]) => ({
    organization,
    estimatedCostCents: l.estimated,
    projectedCostCents: l.projected,
  }));
  return { organizations, total: { estimatedCostCents: estimated, projectedCostCents: projected } };
}
