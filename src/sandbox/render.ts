/**
 * The sandbox's own merge-tag rendering (it shares no code with src/message, so a bug cannot hide
 * in both). `{{tag}}` or `{{tag|fallback}}`, whitespace around names allowed. A tag resolves to the
 * contact's non-empty value, else the inline fallback, else the organization default (nearest
 * organization up the tree that declares one), else the platform default: the empty string.
 */
import { dict, own } from "./dict.js";
import type { World } from "./state/world.js";

const TAG = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\|([^}]*))?\}\}/g;

export function renderMergeTags(
  text: string,
  values: Readonly<Record<string, string>>,
  orgDefaults: Readonly<Record<string, string>>,
): string {
  return text.replace(TAG, (_whole, name: string, fallback: string | undefined) => {
    const value = own(values, name);
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined && fallback.trim() !== "") return fallback.trim();
    return own(orgDefaults, name) ?? "";
  });
}

/** Merge defaults of `orgId`, inherited from ancestors (the nearest declaration wins). */
export function mergeDefaultsFor(world: World, orgId: string): Record<string, string> {
  const chain: Record<string, string>[] = [];
  const seen = new Set<string>();
  for (let id: string | null = orgId; id !== null && !seen.has(id); ) {
    seen.add(id);
    const org: World["organizations"][string] | undefined = own(world.organizations, id);
    if (org === undefined) break;
    chain.push(org.merge_defaults);
    id = org.parent_id;
  }
  // Into a record with no prototype: a default named `__proto__` is a default like any other.
  return Object.assign(dict<string>(), ...chain.reverse());
}
