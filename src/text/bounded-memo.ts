/**
 * The one memo of results kept by content, for every cache of a pure answer in a long-lived process
 * (the language server, the watch loop, the embedded sandbox, the test suite's in-process runs): a
 * policy file's parse, a sandbox fixture's load, a date-time read, an instant read in a zone.
 */

/**
 * Results of a pure computation by its whole input. Invariants: a key is the computation's whole
 * input (never a path or a time alone), so a kept result is the one a new computation would give;
 * at most `max` results are kept, the least recently used dropped first, so a long process does not
 * grow without end; a key longer than `maxKeyLength` is computed every time and not kept; with
 * `freeze`, each result is deeply frozen before it is kept, so no caller can change what a later
 * one reads (callers that must change their copy keep `freeze` off and clone on use).
 */
export interface BoundedMemo<T> {
  /** The result for `key`: `make()` at the first call (and after it was dropped), kept. */
  get(key: string, make: () => T): T;
  /** How many results were made (not taken from the memo) so far. */
  readonly made: number;
}

/** Options of {@link boundedMemo}. */
export interface BoundedMemoOptions {
  /** The most results kept (at least 1). */
  readonly max: number;
  /** The longest key kept (default: any). */
  readonly maxKeyLength?: number;
  /** Deeply freeze each result before keeping it (default false). */
  readonly freeze?: boolean;
}

/** A memo as {@link BoundedMemo} describes. */
export function boundedMemo<T>(options: BoundedMemoOptions): BoundedMemo<T> {
  const kept = new Map<string, T>();
  const max = Math.max(1, options.max);
  const maxKeyLength = options.maxKeyLength ?? Number.POSITIVE_INFINITY;
  let made = 0;
  return {
    get(key, make) {
      if (kept.has(key)) {
        const found = kept.get(key) as T;
        // Most recently used last: a Map keeps insertion order, so the first key is the oldest.
        kept.delete(key);
        kept.set(key, found);
        return found;
      }
      made += 1;
      const result = options.freeze === true ? deepFreeze(make()) : make();
      if (key.length > maxKeyLength) return result;
      if (kept.size >= max) {
        const oldest = kept.keys().next();
        if (oldest.done !== true) kept.delete(oldest.value);
      }
      kept.set(key, result);
      return result;
    },
    get made() {
      return made;
    },
  };
}

/**
 * `value` with every object and array inside it frozen (Maps and Sets are frozen as objects: their
 * entries are frozen deeply, but a Map or Set itself can still be changed, so a kept result must hold
 * none that anyone changes). Getters are not called: what they compute is not frozen. Returns `value`.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (value instanceof Map) {
    for (const [k, v] of value) {
      deepFreeze(k);
      deepFreeze(v);
    }
  } else if (value instanceof Set) {
    for (const v of value) deepFreeze(v);
  } else {
    // Data properties only: an accessor is never called (a lazy getter, such as a campaign file's
    // `sha256`, keeps its own state in its closure and stays lazy).
    for (const key of Reflect.ownKeys(value)) {
      const property = Object.getOwnPropertyDescriptor(value, key);
      if (property !== undefined && "value" in property) deepFreeze(property.value);
    }
  }
  return value;
}
