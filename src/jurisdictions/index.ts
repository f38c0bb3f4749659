/**
 * Where the recipients are and the rules of those places (docs/places.md): the states and zones a
 * list is declared in, the shipped jurisdiction rule packs, and the one send window judged over a
 * whole send in every zone. Pure.
 */
export * from "./pack.js";
export * from "./places.js";
export * from "./send-rules.js";
export * from "./states.js";
