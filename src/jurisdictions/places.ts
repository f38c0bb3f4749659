/**
 * Where a contact list's recipients live (docs/places.md): US states, IANA time zones, or both,
 * declared once per list and organization in the policy's `places:` (the API cannot read
 * contacts). A state implies its zones (states.ts). Pure; plain data, so it crosses to worker
 * threads with a validate job.
 */
import type { SourceRange } from "../diagnostics/diagnostic.js";
import { type StateCode, stateOf } from "./states.js";

/** Where recipients live. Invariant: at least one state or zone; zones are IANA zones luxon knows. */
export interface RecipientPlaces {
  readonly states: readonly StateCode[];
  readonly zones: readonly string[];
}

/**
 * One list's declaration: the organization and the list as the policy writes them (a name or an
 * id), its places, and where it is written (for `related`).
 */
export interface ListPlaces extends RecipientPlaces {
  readonly organization: string;
  readonly list: string;
  readonly file: string;
  readonly range: SourceRange;
}

/** Every zone of `places`: its zones, then each state's zones, each once, in that order. */
export function zonesOf(places: RecipientPlaces): string[] {
  return [...new Set([...places.zones, ...places.states.flatMap((s) => stateOf(s).zones)])];
}

/** `FL, TX; America/Phoenix` (states, then zones beyond theirs). */
export function placesText(places: RecipientPlaces): string {
  const implied = new Set(places.states.flatMap((s) => stateOf(s).zones));
  const extra = places.zones.filter((z) => !implied.has(z));
  return [places.states.join(", "), extra.join(", ")].filter((s) => s !== "").join("; ");
}

/**
 * The declaration of a list known by any of `listNames` in an organization known by any of
 * `organizationNames` (names and ids, as written or as read live): every matching entry joined (a
 * list declared under its name in one policy file and its id in another has the places of both);
 * null when none matches. Case-sensitive, as the API's names are.
 */
export function placesOfList(
  declared: readonly ListPlaces[],
  organizationNames: readonly string[],
  listNames: readonly string[],
): RecipientPlaces | null {
  const matches = declared.filter(
    (d) => organizationNames.includes(d.organization) && listNames.includes(d.list),
  );
  if (matches.length === 0) return null;
  return {
    states: [...new Set(matches.flatMap((m) => m.states))],
    zones: [...new Set(matches.flatMap((m) => m.zones))],
  };
}

/**
 * Where a send's recipients are, from its lists' places: every declared state, and every zone of
 * the declared lists; the schedule's zone too when a list is not declared (its recipients are taken
 * to be where the schedule says, as without any declaration) or the send names no list.
 */
export function sendPlaces(
  lists: readonly (RecipientPlaces | null)[],
  scheduleZone: string,
): { readonly states: readonly StateCode[]; readonly zones: readonly string[] } {
  const declared = lists.filter((l): l is RecipientPlaces => l !== null);
  const undeclared = lists.length === 0 || declared.length < lists.length;
  return {
    states: [...new Set(declared.flatMap((l) => l.states))],
    zones: [...new Set([...declared.flatMap(zonesOf), ...(undeclared ? [scheduleZone] : [])])],
  };
}
