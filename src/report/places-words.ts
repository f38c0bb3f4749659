/**
 * Where a send's recipients live, in words, for every view of a plan (terminal, Markdown, the
 * gallery): each contact list with its declared places (the policy's `places`, docs/places.md) and
 * the zones they put it in, and every zone the send window is judged in. Pure.
 */
import {
  isStateCode,
  type ListPlaces,
  placesOfList,
  placesText,
  type StateCode,
  zonesOf,
} from "../jurisdictions/index.js";
import type { PlanAudience, PlanPlaces } from "../plan/types.js";

/**
 * `Ward 3 Likely Voters: FL (America/New_York, America/Chicago); the send window is judged in
 * America/New_York, America/Chicago`; a list the policy does not place says so.
 */
export function describePlaces(places: PlanPlaces, lists: PlanAudience["contact_lists"]): string {
  const each = places.contact_lists.map((p, i) => {
    const name = lists[i]?.name ?? p.id;
    if (!p.declared) return `${name}: not declared (taken to be in the schedule's zone)`;
    const states = p.states.filter((s): s is StateCode => isStateCode(s));
    const declared = { states, zones: p.zones };
    return `${name}: ${placesText(declared)} (${zonesOf(declared).join(", ")})`;
  });
  const judged = places.zones.length === 0 ? "" : `; the send window is judged in ${places.zones.join(", ")}`;
  return `${each.join("; ") || "no contact list"}${judged}`;
}

/**
 * Where the lists a file names are, as the policy declares them, before any plan (`preview`): each
 * list as written, matched under the file's `organization:`; null when the policy declares no
 * places or the file names no organization (nothing can be matched offline).
 */
export function describeFilePlaces(
  declared: readonly ListPlaces[],
  organization: string | undefined,
  lists: readonly string[],
): string | null {
  if (declared.length === 0 || organization === undefined) return null;
  return lists
    .map((list) => {
      const places = placesOfList(declared, [organization], [list]);
      return places === null
        ? `${list}: not declared (taken to be in the schedule's zone)`
        : `${list}: ${placesText(places)} (${zonesOf(places).join(", ")})`;
    })
    .join("; ");
}
