/**
 * Parses kept across the runs of one process, by content: a long-lived process (the language
 * server, the watch loop, the test suite's in-process runs) reads the same unchanged file again and
 * again, and the same text always parses to the same result, so it is parsed once. Correct by
 * construction: the key is the whole input (never a path or a time alone), and each result is
 * frozen, deeply, before it is kept, so no run can change what a later run reads (a change throws
 * in strict code, which ES modules are).
 */

/** One kind of parse kept: at most `max` results, the least recently used dropped first. */
export interface ParseMemo<T> {
  /**
   * The result of `parse()` for `key` (the parse's whole input, e.g. the file name as shown and
   * its text), parsed at the first call and frozen. Inputs longer than the memo's `maxKeyLength`
   * are parsed every time, unkept.
   */
  get(key: string, parse: () => T): T;
}

/** A memo of at most `max` results whose keys are at most `maxKeyLength` characters long. */
export function parseMemo<T>(max: number, maxKeyLength: number): ParseMemo<T> {
  const kept = new Map<string, T>();
  return {
    get(key, parse) {
      if (key.length > maxKeyLength) return parse();
      const found = kept.get(key);
      if (found !== undefined || kept.has(key)) {
        // Most recently used last: Map keeps insertion order.
        kept.delete(key);
        kept.set(key, found as T);
        return found as T;
      }
      const result = deepFreeze(parse());
      if (kept.size >= max) {
        const oldest = kept.keys().next();
        if (oldest.done !== true) kept.delete(oldest.value);
      }
      kept.set(key, result);
      return result;
    },
  };
}

/**
 * `value` with every object and array inside it frozen (Maps and Sets are frozen as objects: their
 * entries are not, so a kept result must hold none that anyone changes). Returns `value`.
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
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}
