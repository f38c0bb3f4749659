/**
 * Totals of a set of projects, per organization and overall: counts summed, rates recomputed from
 * the summed counts (never averaged), money summed in integer ten-thousandths. A project whose
 * counters are unknown adds nothing to the counts and is counted in `withoutStatistics`, so a
 * reader can tell a partial total from a complete one. Pure.
 */

import { fraction } from "../text/fraction.js";
import type { Counters, ProjectFigures, Rates } from "./figures.js";

/** Counters summed over the projects that have them. */
export type SummedCounters = { readonly [K in keyof Counters]: number };

/**
 * Totals of a set of projects. Invariants: `projects` counts every project of the set;
 * `withoutStatistics <= projects` counts those whose counters are unknown (not in the sums);
 * `withoutActualCost >= withoutStatistics`; `withoutEstimate` counts those whose estimate is unknown,
 * and `estimatedCostE4` is null when none is known; rates come from these sums (the cost per
 * delivered message only over projects whose cost is known).
 */
export interface Totals extends SummedCounters {
  readonly projects: number;
  readonly withoutStatistics: number;
  readonly withoutActualCost: number;
  readonly withoutEstimate: number;
  /** Sum of the known recipients (a project read by id knows them too). */
  readonly recipients: number;
  readonly estimatedCostE4: number | null;
  readonly rates: Rates;
}

/** One organization's projects and their totals. `organizationId` null: projects that could not be read. */
export interface OrganizationTotals {
  readonly organizationId: string | null;
  readonly organizationName: string | null;
  readonly projects: readonly ProjectFigures[];
  readonly totals: Totals;
}

const add = (sum: number, value: number | null): number => sum + (value ?? 0);

export function totalsOf(projects: readonly ProjectFigures[]): Totals {
  let sent = 0;
  let delivered = 0;
  let failed = 0;
  let optedOut = 0;
  let replies = 0;
  let clicks = 0;
  let uniqueClicks = 0;
  let actualCostE4 = 0;
  let deliveredWithCost = 0;
  let recipients = 0;
  let estimatedCostE4 = 0;
  let withoutStatistics = 0;
  let withoutActualCost = 0;
  let withoutEstimate = 0;
  for (const p of projects) {
    if (p.source !== "statistics") withoutStatistics++;
    sent = add(sent, p.sent);
    delivered = add(delivered, p.delivered);
    failed = add(failed, p.failed);
    optedOut = add(optedOut, p.optedOut);
    replies = add(replies, p.replies);
    clicks = add(clicks, p.clicks);
    uniqueClicks = add(uniqueClicks, p.uniqueClicks);
    if (p.actualCostE4 === null) withoutActualCost++;
    else {
      actualCostE4 += p.actualCostE4;
      deliveredWithCost = add(deliveredWithCost, p.delivered);
    }
    recipients = add(recipients, p.recipients);
    if (p.estimatedCostE4 === null) withoutEstimate++;
    else estimatedCostE4 += p.estimatedCostE4;
  }
  return {
    projects: projects.length,
    withoutStatistics,
    withoutActualCost,
    withoutEstimate,
    recipients,
    sent,
    delivered,
    failed,
    optedOut,
    replies,
    clicks,
    uniqueClicks,
    actualCostE4,
    estimatedCostE4: withoutEstimate === projects.length ? null : estimatedCostE4,
    rates: {
      delivery: fraction(delivered, sent),
      failure: fraction(failed, sent),
      optOut: fraction(optedOut, delivered),
      costPerDeliveredE4: fraction(actualCostE4, deliveredWithCost),
    },
  };
}

/**
 * The projects grouped by organization, each group with its totals: groups ordered by
 * organization name (then id), the group of unreadable projects (no organization) last; projects
 * keep their given order within a group.
 */
export function byOrganization(projects: readonly ProjectFigures[]): OrganizationTotals[] {
  const groups = new Map<string | null, ProjectFigures[]>();
  for (const p of projects) {
    const group = groups.get(p.organizationId);
    if (group === undefined) groups.set(p.organizationId, [p]);
    else group.push(p);
  }
  const result = [...groups].map(([organizationId, members]) => ({
    organizationId,
    organizationName: members.find((m) => m.organizationName !== null)?.organizationName ?? null,
    projects: members,
    totals: totalsOf(members),
  }));
  const key = (g: OrganizationTotals): string => g.organizationName ?? g.organizationId ?? "";
  return result.sort((a, b) => {
    if ((a.organizationId === null) !== (b.organizationId === null))
      return a.organizationId === null ? 1 : -1;
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) return ka < kb ? -1 : 1;
    return (a.organizationId ?? "") < (b.organizationId ?? "") ? -1 : 1;
  });
}
