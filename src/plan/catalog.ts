/**
 * Catalogs of records a file may reference by name or id, and matching one reference against them.
 * Pure. A catalog entry has one id and the labels it answers to (a name, an E.164 number, a
 * nickname); ids always win over labels, labels match exactly (case-sensitive), and close labels
 * (case-insensitive edit distance) are offered as did-you-mean candidates.
 */
import { editDistance } from "../text/did-you-mean.js";

/** One record a reference may name. Invariant: `id` is unique within its catalog. */
export interface CatalogEntry {
  readonly id: string;
  /** Strings the record answers to besides its id, such as its name. */
  readonly labels: readonly string[];
  /** How the record is shown to people (its name, or number and nickname). */
  readonly display: string;
  /**
   * The organizations the record belongs to (its owner; for a shared phone number also the
   * organizations it is shared with). Absent or empty: unknown, so not checked.
   */
  readonly organizations?: readonly string[];
}

/** The outcome of matching one reference. `close` holds up to three nearby labels, closest first. */
export type CatalogMatch =
  | { readonly kind: "found"; readonly entry: CatalogEntry }
  | { readonly kind: "missing"; readonly close: readonly string[] }
  | { readonly kind: "ambiguous"; readonly entries: readonly CatalogEntry[] };

/** Most candidates a did-you-mean lists. */
export const MAX_CLOSE_CANDIDATES = 3;

/**
 * Builds a catalog from entries that may repeat an id (the same brand seen on several lists): labels
 * of one id are merged, the first display wins. Empty labels are dropped.
 */
export function catalogOf(entries: Iterable<CatalogEntry>): readonly CatalogEntry[] {
  const byId = new Map<string, { labels: string[]; display: string; organizations: string[] }>();
  for (const entry of entries) {
    const seen = byId.get(entry.id);
    const labels = entry.labels.filter((l) => l !== "");
    const organizations = (entry.organizations ?? []).filter((o) => o !== "");
    if (seen === undefined)
      byId.set(entry.id, {
        labels: [...new Set(labels)],
        display: entry.display,
        organizations: [...new Set(organizations)],
      });
    else {
      for (const label of labels) if (!seen.labels.includes(label)) seen.labels.push(label);
      for (const o of organizations) if (!seen.organizations.includes(o)) seen.organizations.push(o);
    }
  }
  return [...byId].map(([id, { labels, display, organizations }]) =>
    organizations.length === 0 ? { id, labels, display } : { id, labels, display, organizations },
  );
}

export function matchReference(catalog: readonly CatalogEntry[], reference: string): CatalogMatch {
  const byId = catalog.find((e) => e.id === reference);
  if (byId !== undefined) return { kind: "found", entry: byId };
  const byLabel = catalog.filter((e) => e.labels.includes(reference));
  const [only, ...others] = byLabel;
  if (only !== undefined && others.length === 0) return { kind: "found", entry: only };
  if (only !== undefined) return { kind: "ambiguous", entries: byLabel };
  return { kind: "missing", close: closeLabels(reference, catalog) };
}

/** Labels within a plausible typo distance of `reference` (a third of its length, at least 2). */
export function closeLabels(reference: string, catalog: readonly CatalogEntry[]): string[] {
  const limit = Math.max(2, Math.floor(reference.length / 3));
  const wanted = reference.toLowerCase();
  const scored: { label: string; distance: number }[] = [];
  for (const label of new Set(catalog.flatMap((e) => e.labels))) {
    const distance = editDistance(wanted, label.toLowerCase());
    if (distance <= limit) scored.push({ label, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  return scored.slice(0, MAX_CLOSE_CANDIDATES).map((s) => s.label);
}

/** The display text of `id` in `catalog`, or the id itself when the catalog does not hold it. */
export function displayOf(catalog: readonly CatalogEntry[], id: string): string {
  return catalog.find((e) => e.id === id)?.display ?? id;
}
