/** Organization hierarchy: a key sees its organization and every descendant. */
import type { World } from "./state/world.js";

/**
 * The subtrees computed for each organizations record (a key's every request needs its own):
 * organizations are made when a world is built from its fixture and never change after, so a
 * record holding as many organizations as when its subtrees were computed has the same ones.
 */
const computed = new WeakMap<
  World["organizations"],
  { count: number; subtrees: Map<string, ReadonlySet<string>> }
>();

/** The organization and all its descendants (the same set for every request of the world). */
export function subtree(world: World, orgId: string): ReadonlySet<string> {
  const count = Object.keys(world.organizations).length;
  let entry = computed.get(world.organizations);
  if (entry === undefined || entry.count !== count) {
    entry = { count, subtrees: new Map() };
    computed.set(world.organizations, entry);
  }
  let out = entry.subtrees.get(orgId);
  if (out === undefined) {
    out = descendants(world, orgId);
    entry.subtrees.set(orgId, out);
  }
  return out;
}

function descendants(world: World, orgId: string): Set<string> {
  const out = new Set<string>([orgId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const org of Object.values(world.organizations)) {
      if (org.parent_id !== null && out.has(org.parent_id) && !out.has(org.id)) {
        out.add(org.id);
        grew = true;
      }
    }
  }
  return out;
}
