/**
 * What the plan's sends add up to, overall and per organization (`PlanTotals`). Pure. Only projects
 * that send to their lists (`ProjectPlan.sends`) count; one without an estimate (it could not be
 * read) is counted as `not_estimated` and adds nothing to the sums.
 */
import type { NamedRecord, OrganizationTotals, PlanTotals, ProjectPlan, SendTotals } from "./types.js";

const ZERO: SendTotals = {
  projects: 0,
  not_estimated: 0,
  recipients: 0,
  sms_segments: 0,
  mms_messages: 0,
  estimated_cost_cents: 0,
};

/** `totals` plus one project (which must send). */
function add(totals: SendTotals, project: ProjectPlan): SendTotals {
  const e = project.estimate;
  if (e === null)
    return { ...totals, projects: totals.projects + 1, not_estimated: totals.not_estimated + 1 };
  return {
    projects: totals.projects + 1,
    not_estimated: totals.not_estimated,
    recipients: totals.recipients + e.recipients,
    sms_segments: totals.sms_segments + (e.segments === null ? 0 : e.recipients * e.segments),
    mms_messages: totals.mms_messages + (e.segments === null ? e.recipients : 0),
    // Cents may be fractional: drop the float noise of the sum (never a whole thousandth of a cent).
    estimated_cost_cents: Math.round((totals.estimated_cost_cents + e.estimated_cost_cents) * 1e4) / 1e4,
  };
}

export function totalSends(projects: readonly ProjectPlan[]): PlanTotals {
  const groups = new Map<string, { organization: NamedRecord | null; totals: SendTotals }>();
  // Every organization of a read project has an entry (zeros when nothing of it sends).
  for (const p of projects) {
    const organization = p.audience?.organization ?? null;
    if (organization !== null && !groups.has(organization.id))
      groups.set(organization.id, { organization, totals: ZERO });
  }
  let overall = ZERO;
  let unread: SendTotals | undefined;
  for (const p of projects) {
    if (!p.sends) continue;
    overall = add(overall, p);
    const organization = p.audience?.organization ?? null;
    const group = organization === null ? undefined : groups.get(organization.id);
    if (group === undefined) unread = add(unread ?? ZERO, p);
    else group.totals = add(group.totals, p);
  }
  const byOrganization: OrganizationTotals[] = [...groups.values()].map((g) => ({
    organization: g.organization,
    ...g.totals,
  }));
  if (unread !== undefined) byOrganization.push({ organization: null, ...unread });
  return { overall, by_organization: byOrganization };
}
