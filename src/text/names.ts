/**
 * Names are data. A map keyed by a name a person or a server chose (an address, a template, a brand,
 * a CSV column, a merge field, a language, an id) answers for `__proto__`, `constructor` or
 * `toString` exactly as for any other name:
 *
 * - a lookup reads only the map's own entries ({@link own}), never one inherited from
 *   `Object.prototype` (`{}.constructor` is a function, not "no such template");
 * - a map built here has no prototype ({@link nameMap}, {@link nameMapFrom}), so assigning
 *   `map["__proto__"]` makes an own entry instead of replacing the prototype (which would drop the
 *   entry without a word).
 *
 * Maps of the language's own (a `Map`) need neither. Pure.
 */

/** The own value of `record` at `name`; undefined when it has none (whatever `name` is). */
export function own<T>(record: Readonly<Record<string, T>> | null | undefined, name: string): T | undefined {
  return record !== null && record !== undefined && Object.hasOwn(record, name) ? record[name] : undefined;
}

/** Whether `record` has an own entry `name` (never an inherited one, as `in` would answer). */
export function hasName(record: object | null | undefined, name: string): boolean {
  return record !== null && record !== undefined && Object.hasOwn(record, name);
}

/** An empty map for names, with no prototype: every name, `__proto__` included, is an own entry. */
export function nameMap<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** A map for names from `entries` (as `Object.fromEntries`, but with no prototype). */
export function nameMapFrom<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  const out = nameMap<T>();
  for (const [name, value] of entries) out[name] = value;
  return out;
}
