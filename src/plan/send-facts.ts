/**
 * What a project's send is known by, for the rules of where its recipients are (the policy's
 * `places`, src/policy/window-rules.ts): the names and ids its organization and each contact list
 * go by, as the file writes them and as the live catalogs know them (one list, one declaration,
 * whichever name or id the policy uses). And the audience's places, for the reviewer. Pure.
 */
import type { ProjectSpec } from "../campaign/model.js";
import type { Project } from "../contract/resources.js";
import { type RecipientPlaces, sendPlaces } from "../jurisdictions/index.js";
import type { Policy } from "../policy/model.js";
import { listPlaces, type SendFacts } from "../policy/window-rules.js";
import { type CatalogEntry, matchReference } from "./catalog.js";
import type { Catalogs } from "./catalogs.js";
import type { PlanAudience, PlanPlaces } from "./types.js";

/** An entry's id and every label it answers to. */
const namesOf = (entry: CatalogEntry): string[] => [entry.id, ...entry.labels];

/** `reference` and what it resolves to in `catalog` (its id and labels), when it resolves to one record. */
function resolvedNames(catalog: readonly CatalogEntry[], reference: string): string[] {
  const match = matchReference(catalog, reference);
  return [...new Set([reference, ...(match.kind === "found" ? namesOf(match.entry) : [])])];
}

/**
 * The send's organization and lists by every name and id they go by: the file's own (when it
 * writes them), the live project's otherwise. Its course is not known here (`span` null).
 */
export function sendFactsOf(spec: ProjectSpec, project: Project | null, catalogs: Catalogs): SendFacts {
  const organization = [
    ...(spec.organization === undefined ? [] : resolvedNames(catalogs.organization, spec.organization)),
    ...(project === null ? [] : resolvedNames(catalogs.organization, project.organization_id)),
  ];
  const owned = (e: CatalogEntry) =>
    project === null || e.organizations === undefined || e.organizations.includes(project.organization_id);
  const lists = catalogs.contact_lists.filter(owned);
  const references = spec.contactLists ?? project?.contact_list_ids ?? [];
  const suppressions = spec.suppressionLists ?? project?.suppression_list_ids ?? [];
  return {
    organization: [...new Set(organization)],
    lists: references.map((r) => resolvedNames(lists, r)),
    suppressionLists: suppressions.map((r) => resolvedNames(lists, r)),
    span: null,
    completed: project?.status === "completed",
  };
}

/**
 * The audience with its lists' places, as the policy declares them (`places` present only when the
 * policy declares any): each live contact list's states and zones (`declared` false: not declared,
 * its recipients taken to be in the schedule's zone), and every zone the send window is judged in.
 */
export function withPlaces(
  audience: PlanAudience,
  policy: Policy | undefined,
  organization: readonly string[],
  scheduleZone: string | null,
): PlanAudience {
  if (policy === undefined || (policy.places ?? []).length === 0) return audience;
  const facts: SendFacts = {
    organization: [
      ...new Set([...organization, audience.organization.id, audience.organization.name ?? ""]),
    ].filter((o) => o !== ""),
    lists: audience.contact_lists.map((l) => (l.name === null ? [l.id] : [l.id, l.name])),
    span: null,
  };
  const declared = listPlaces(policy, facts);
  const places: PlanPlaces = {
    contact_lists: audience.contact_lists.map((l, i) => placesJson(l.id, declared[i] ?? null)),
    zones: scheduleZone === null ? [] : [...sendPlaces(declared, scheduleZone).zones],
  };
  return { ...audience, places };
}

function placesJson(id: string, places: RecipientPlaces | null): PlanPlaces["contact_lists"][number] {
  return places === null
    ? { id, declared: false, states: [], zones: [] }
    : { id, declared: true, states: [...places.states], zones: [...places.zones] };
}
