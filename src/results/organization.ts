/**
 * `results --organization ORG` (docs/results.md "Groups"): the one organization the store has
 * recorded whose id or name (its latest) is ORG, by the rule `status --organization` follows for the
 * organizations a key sees (src/contract/organization-named.ts). A name the store has not recorded
 * is an error, never an empty report. Pure.
 */
import { organizationNamed } from "../contract/organization-named.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ResultsSnapshot } from "./snapshot.js";

/** The id of the organization `wanted` names among those of `snapshots`, or why none. */
export function recordedOrganization(
  snapshots: readonly ResultsSnapshot[],
  wanted: string,
): { readonly ok: true; readonly id: string } | { readonly ok: false; readonly diagnostic: Diagnostic } {
  // Each organization once, under the name of its latest snapshot.
  const latest = new Map<string, ResultsSnapshot>();
  for (const s of snapshots) {
    const seen = latest.get(s.organization_id);
    if (seen === undefined || seen.at < s.at) latest.set(s.organization_id, s);
  }
  const orgs = [...latest.values()]
    .map((s) => ({ id: s.organization_id, display_name: s.organization_name }))
    .sort((a, b) => (a.display_name < b.display_name ? -1 : a.display_name > b.display_name ? 1 : 0));
  const named = organizationNamed(orgs, wanted, "the results store has recorded");
  if (named.ok) return named;
  return {
    ok: false,
    diagnostic: {
      severity: "error",
      code: "results.unknown-organization",
      message: named.message,
      hint:
        orgs.length === 0
          ? "the store holds no snapshot yet: record first (`campaignctl results record`)"
          : `give one of: ${named.choices}`,
    },
  };
}
