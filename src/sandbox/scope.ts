/** Organization hierarchy: a key sees its organization and every descendant. */
import type { World } from "./state/world.js";

/** The organization and all its descendants. */
export function subtree(world: World, orgId: string): Set<string> {
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
