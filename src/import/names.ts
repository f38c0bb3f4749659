/**
 * How import writes a reference: by name where the name finds exactly this record among what the
 * key can see (the plan resolves it the same way, `plan/catalog.ts`), else by id with the reason as
 * a YAML comment. Pure.
 */
import { type CatalogEntry, matchReference } from "../plan/catalog.js";
import type { Catalogs, ReferenceKind } from "../plan/catalogs.js";
import { REFERENCE_NOUN } from "../plan/catalogs.js";

/**
 * A reference as written. `visible` is false when the key's catalogs do not hold the id at all: the
 * plan could not resolve it either way, so import leaves the key out (and says so in a comment).
 */
export interface WrittenRef {
  readonly value: string;
  readonly id: string;
  readonly visible: boolean;
  /** Why the id is written instead of the name. */
  readonly comment?: string;
}

/** The label import prefers for a record: its name (a phone number's E.164 number comes first). */
function preferredLabel(entry: CatalogEntry): string | undefined {
  return entry.labels[0];
}

export function writtenRef(catalogs: Catalogs, kind: ReferenceKind, id: string): WrittenRef {
  const catalog = catalogs[kind];
  const entry = catalog.find((e) => e.id === id);
  const noun = REFERENCE_NOUN[kind];
  if (entry === undefined) return { value: id, id, visible: false, comment: `no ${noun} the key can see` };
  const label = preferredLabel(entry);
  if (label === undefined || label === "") return { value: id, id, visible: true, comment: "it has no name" };
  const match = matchReference(catalog, label);
  if (match.kind === "found" && match.entry.id === id) return { value: label, id, visible: true };
  if (match.kind === "ambiguous")
    return {
      value: id,
      id,
      visible: true,
      comment: `${label}: ${match.entries.length} ${noun}s share the name`,
    };
  return { value: id, id, visible: true, comment: `${label}: the name is another ${noun}'s id` };
}

/** The id a reference as written in a file resolves to, or undefined when it does not resolve. */
export function resolvedId(catalogs: Catalogs, kind: ReferenceKind, written: string): string | undefined {
  const match = matchReference(catalogs[kind], written);
  return match.kind === "found" ? match.entry.id : undefined;
}
