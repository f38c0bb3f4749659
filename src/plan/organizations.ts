/**
 * The plan per organization (issue 26, "one plan, one apply, one summary"): which projects belong
 * to which organization, their counts, and what the organization's part of the plan comes to.
 * Pure; derived from the project plans only, so a saved plan's sections follow from its projects.
 */
import type { ProjectSpec } from "../campaign/model.js";
import type { Organization } from "../contract/resources.js";
import { projectsSummary, summarize } from "./summary.js";
import type { NamedRecord, OrganizationPlan, OrganizationPlanState, ProjectPlan } from "./types.js";

/**
 * Groups the plan's projects by organization: the live project's (its audience), else the one the
 * file names (resolved by name or id against `organizations`), else null. Sections are in the order
 * their first project comes; the null section last.
 */
export function organizationSections(
  projects: readonly ProjectPlan[],
  specs: readonly ProjectSpec[],
  organizations: readonly Organization[],
): OrganizationPlan[] {
  const specOf = new Map(specs.map((s) => [s.address, s]));
  const groups = new Map<string, { organization: NamedRecord | null; projects: ProjectPlan[] }>();
  for (const p of projects) {
    const organization =
      p.audience?.organization ?? named(specOf.get(p.address)?.organization, organizations);
    const key = organization?.id ?? "";
    const group = groups.get(key) ?? { organization, projects: [] };
    group.projects.push(p);
    groups.set(key, group);
  }
  const sections = [...groups.values()].map(
    (g): OrganizationPlan => ({
      organization: g.organization,
      state: stateOf(g.projects),
      projects: g.projects.map((p) => p.address),
      summary: projectsSummary(summarize(g.projects, [])),
    }),
  );
  return [
    ...sections.filter((s) => s.organization !== null),
    ...sections.filter((s) => s.organization === null),
  ];
}

function named(written: string | undefined, organizations: readonly Organization[]): NamedRecord | null {
  if (written === undefined) return null;
  const found =
    organizations.find((o) => o.id === written) ?? organizations.find((o) => o.display_name === written);
  // Not listed (its key refused, say): named as the file writes it.
  return found === undefined ? { id: written, name: written } : { id: found.id, name: found.display_name };
}

function stateOf(projects: readonly ProjectPlan[]): OrganizationPlanState {
  if (projects.some((p) => p.live === null && p.diagnostics.some((d) => d.severity === "error")))
    return "failed";
  const s = summarize(projects, []);
  if (s.blocked > 0 || s.drifted > 0 || s.errors > 0) return "blocked";
  return s.planned > 0 ? "ready" : "no-changes";
}

/** How an organization is named in reports: its name, else its id, else "unknown organization". */
export function organizationLabel(organization: NamedRecord | null): string {
  if (organization === null) return "unknown organization";
  return organization.name ?? organization.id;
}
