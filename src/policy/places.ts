/**
 * The policy's `places:` (where each contact list's recipients live) and its `jurisdictions` rule
 * read from a policy file that passed its schema: each list's places with the place its key is
 * written at, and the problems the schema cannot see (a zone luxon does not know, a pack this
 * campaignctl does not ship, a pinned pack version it does not ship). Pure.
 */
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import {
  type ListPlaces,
  parsePackReference,
  SHIPPED_PACKS,
  type StateCode,
} from "../jurisdictions/index.js";
import { isKnownZone } from "../text/zone-offsets.js";
import type { JurisdictionsRule } from "./model.js";

/** The policy's `places:` as the schema allows it. */
type RawPlaces = Readonly<
  Record<
    string,
    Readonly<Record<string, { readonly states?: readonly string[]; readonly zones?: readonly string[] }>>
  >
>;

const HINT = "see docs/places.md for the places of a list and the shipped rule packs";

/** Where the value at a path of the policy file is written (its key when it has one). */
export type LocatePolicy = (path: readonly (string | number)[]) => SourceRange;

/** Every list's places (organization, then list, in file order), and the zones luxon does not know. */
export function placesOf(
  data: { readonly places?: RawPlaces },
  locate: LocatePolicy,
  file: string,
): { readonly places: readonly ListPlaces[]; readonly diagnostics: readonly Diagnostic[] } {
  const places: ListPlaces[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const [organization, lists] of Object.entries(data.places ?? {}))
    for (const [list, declared] of Object.entries(lists)) {
      const zones = declared.zones ?? [];
      zones.forEach((zone, i) => {
        if (!isKnownZone(zone))
          diagnostics.push({
            severity: "error",
            code: "policy.file-invalid",
            message: `places.${organization}.${list}.zones: ${JSON.stringify(zone)} is not a time zone this campaignctl knows (an IANA name such as America/Chicago)`,
            range: locate(["places", organization, list, "zones", i]),
            hint: HINT,
          });
      });
      places.push({
        organization,
        list,
        states: (declared.states ?? []) as StateCode[],
        zones,
        file,
        range: locate(["places", organization, list]),
      });
    }
  return { places, diagnostics };
}

/** The packs of a `jurisdictions` rule that this campaignctl does not ship, or not at the version pinned. */
export function packProblems(rule: JurisdictionsRule | undefined, locate: LocatePolicy): Diagnostic[] {
  const shipped = [...SHIPPED_PACKS.values()].map((p) => `${p.name} (version ${p.version})`).join(", ");
  return (rule?.packs ?? []).flatMap((reference, i): Diagnostic[] => {
    const { name, version } = parsePackReference(reference);
    const pack = SHIPPED_PACKS.get(name);
    const range = locate(["rules", "jurisdictions", "packs", i]);
    if (pack === undefined)
      return [
        {
          severity: "error",
          code: "policy.file-invalid",
          message: `rules.jurisdictions.packs: no rule pack named ${JSON.stringify(name)} ships with this campaignctl`,
          range,
          hint: `name a shipped pack: ${shipped} (docs/places.md)`,
        },
      ];
    if (version !== undefined && version !== pack.version)
      return [
        {
          severity: "error",
          code: "policy.file-invalid",
          message: `rules.jurisdictions.packs: the policy pins ${name} at version ${version}, but this campaignctl ships version ${pack.version} (checked ${pack.checked}): its rules may differ from the ones reviewed`,
          range,
          hint: `review the pack's rules (docs/places.md, src/jurisdictions/packs/${name}.json) and pin ${name}@${pack.version}, or run the campaignctl that ships version ${version}`,
        },
      ];
    return [];
  });
}
