/**
 * Bounded memos of pure functions of strings: the projects of a large campaign mostly share a few
 * messages and schedules (often through `defaults`, always through a template's variants), and lint
 * and the plan analyse them once per project. Pure as long as `compute` is; results are shared, so
 * they must be treated as immutable (the types that go through them are all readonly).
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

/**
 * A memo keyed by a text (a message) and a short key of what else the result depends on. The text
 * is looked up as it is, not joined into a longer key: a string caches its hash, so a message read
 * once from a file is hashed once however many rules look it up, and no key is built per lookup.
 * Up to MAX_REMEMBERED results in all; past it the memo starts again.
 */
export class TextMemo<T> {
  private readonly byText = new Map<string, Map<string, T>>();
  private size = 0;

  /** The result remembered for `text` and `rest`, or computed by `compute` and remembered. */
  get(text: string, rest: string, compute: () => T): T {
    let inner = this.byText.get(text);
    if (inner !== undefined) {
      const known = inner.get(rest);
      if (known !== undefined || inner.has(rest)) return known as T;
    }
    const value = compute();
    if (this.size >= MAX_REMEMBERED) {
      this.byText.clear();
      this.size = 0;
      inner = undefined;
    }
    if (inner === undefined) {
      inner = new Map();
      this.byText.set(text, inner);
    }
    inner.set(rest, value);
    this.size += 1;
    return value;
  }
}

const texts = new Map<string, string>();

/**
 * `text` as the first string seen with its characters (up to MAX_REMEMBERED texts, then again):
 * the projects of a file that write the same message then hold one string, and the memos above
 * keyed by it find it by identity (a string caches its hash, and equal strings that are one object
 * are not compared character by character), once per rule and project.
 */
export function interned(text: string): string {
  const known = texts.get(text);
  if (known !== undefined) return known;
  if (texts.size >= MAX_REMEMBERED) texts.clear();
  texts.set(text, text);
  return text;
}
