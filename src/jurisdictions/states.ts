/**
 * The US states (and the District of Columbia and the territories) a contact list can be declared
 * in, and the IANA time zones each one's recipients live in, from the shipped data file
 * `data/us-state-zones.json` (49 CFR Part 71's boundaries; docs/places.md). A state implies its
 * zones: Florida is Eastern and Central. Pure: the data is part of the module.
 */
import zonesData from "./data/us-state-zones.json" with { type: "json" };

/** A state's two-letter postal code, as the data file lists it (`FL`, `TX`, `DC`, `PR` ...). */
export type StateCode = keyof typeof zonesData.states;

/** One state as the data file describes it. Invariant: `zones` is non-empty, each an IANA zone. */
export interface StateZones {
  readonly code: StateCode;
  readonly name: string;
  readonly zones: readonly string[];
  readonly note?: string;
}

const STATES: ReadonlyMap<string, StateZones> = new Map(
  Object.entries(zonesData.states).map(([code, s]) => [
    code,
    { code: code as StateCode, name: s.name, zones: s.zones, ...("note" in s ? { note: s.note } : {}) },
  ]),
);

/** Every state code, in the data file's order. */
export const STATE_CODES: readonly StateCode[] = [...STATES.keys()] as StateCode[];

/** The date the state-to-zone data was last checked against its source. */
export const STATE_ZONES_CHECKED: string = zonesData.checked;

/** Is `code` a state the data knows? (Own keys only: `__proto__` and `toString` are not states.) */
export function isStateCode(code: string): code is StateCode {
  return STATES.has(code);
}

/** The state's name and zones; a StateCode is always known. */
export function stateOf(code: StateCode): StateZones {
  const state = STATES.get(code);
  if (state === undefined) throw new Error(`bug: unknown state code ${code}`);
  return state;
}
