/**
 * Project addresses and file names derived from names. Pure. An address is lower-case letters,
 * digits and dashes, starting with a letter or digit (the schema's address pattern). Derivation is
 * stable: the same name gives the same address whatever else is imported; a name shared with another
 * project, or an address already taken, gets a suffix from the end of the project's own id (not from
 * the order of the run), lengthened until it is free.
 */

/** The schema's address pattern. */
export const ADDRESS_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

/** Longest slug taken from a name (a suffix may follow). */
const MAX_SLUG_LENGTH = 48;

/** `"GOTV Reminder (Ward 3)"` -> `"gotv-reminder-ward-3"`; `"¡Sí!"` -> `"si"`; nothing usable -> `fallback`. */
export function slugOf(name: string, fallback = "project"): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/^-+|-+$/g, "");
  return slug === "" ? fallback : slug;
}

/** The id's letters and digits, lower-case, for suffixes (taken from its end). */
function idChars(id: string): string {
  const chars = id.toLowerCase().replace(/[^a-z0-9]/g, "");
  return chars === "" ? "x" : chars;
}

/** One project (or file) to name: its id and the name to derive from. */
export interface Nameable {
  readonly id: string;
  readonly name: string;
}

/**
 * Addresses for `wanted`, none of them in `taken`. Invariants: every result matches
 * {@link ADDRESS_PATTERN}; results are distinct from each other and from `taken`; a project's
 * address depends only on its name, its id, the other names and `taken`, not on the input order.
 */
export function deriveAddresses(
  wanted: readonly Nameable[],
  taken: ReadonlySet<string>,
  fallback = "project",
): Map<string, string> {
  const slugs = new Map(wanted.map((w) => [w.id, slugOf(w.name, fallback)]));
  const count = new Map<string, number>();
  for (const slug of slugs.values()) count.set(slug, (count.get(slug) ?? 0) + 1);
  const used = new Set(taken);
  const result = new Map<string, string>();
  // Plain slugs first (they are nobody's suffixed form), then suffixed ones in id order.
  const sorted = [...wanted].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const w of sorted) {
    const slug = slugs.get(w.id) ?? fallback;
    if (count.get(slug) === 1 && !used.has(slug)) {
      result.set(w.id, slug);
      used.add(slug);
    }
  }
  for (const w of sorted) {
    if (result.has(w.id)) continue;
    const slug = slugs.get(w.id) ?? fallback;
    const chars = idChars(w.id);
    let address = `${slug}-${chars.slice(-Math.min(6, chars.length))}`;
    for (let n = 7; used.has(address) && n <= chars.length; n++) address = `${slug}-${chars.slice(-n)}`;
    for (let k = 2; used.has(address); k++) address = `${slug}-${chars}-${k}`;
    result.set(w.id, address);
    used.add(address);
  }
  return result;
}
