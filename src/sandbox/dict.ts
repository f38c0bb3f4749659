/**
 * Ids and body keys are data. Every record keyed by an id (or by a key a request chose) lives in a
 * null-prototype object, so `__proto__`, `constructor` or `hasOwnProperty` are ordinary missing keys:
 * a lookup answers undefined (a 404), an assignment makes an own property, and nothing a request
 * says can reach `Object.prototype`.
 */

/** An empty id-keyed record with no prototype. */
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** A null-prototype copy of `source`'s own enumerable entries (a state file, a request body). */
export function toDict<T>(source: Readonly<Record<string, T>> | null | undefined): Record<string, T> {
  const out = dict<T>();
  if (source !== null && source !== undefined)
    for (const key of Object.keys(source)) out[key] = source[key] as T;
  return out;
}

/** The own value at `key`, never one inherited from a prototype. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
