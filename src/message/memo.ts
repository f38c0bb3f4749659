/**
 * A bounded memo of a pure function of a string: the projects of a large campaign mostly share a
 * few messages and schedules (often through `defaults`), and lint and the plan analyse them once per
 * project. Pure as long as `compute` is; results are shared, so they must be treated as immutable
 * (the types that go through it are all readonly).
 */

/** Distinct keys remembered per memo; past it the memo starts again, so memory stays bounded. */
export const MAX_REMEMBERED = 4096;

/**
 * `compute`, remembering up to MAX_REMEMBERED results by `keyOf` of the input: inputs with the same
 * key give the same object.
 */
export function memoize<I, T>(compute: (input: I) => T, keyOf: (input: I) => string): (input: I) => T {
  const memo = new Map<string, T>();
  return (input) => {
    const key = keyOf(input);
    // One lookup for the usual hit (a key is hashed per lookup, and keys are whole messages).
    const known = memo.get(key);
    if (known !== undefined || memo.has(key)) return known as T;
    const value = compute(input);
    if (memo.size >= MAX_REMEMBERED) memo.clear();
    memo.set(key, value);
    return value;
  };
}

/** The key of a string input: the string itself. */
export const itself = (text: string): string => text;
