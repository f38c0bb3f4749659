/**
 * How `import` (projects, and `--template`) routes: every key reads what it sees (merged); once the
 * statistics name each listed project's organization, it is read with that organization's own key
 * (route-owners.ts); a project id given by hand is read by the first key that can see it. One
 * implementation for both forms of import.
 */
import type { Organization } from "../../contract/resources.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { organizationSlug } from "../organization-keys.js";
import { routeOwners } from "./route-owners.js";
import type { OwnerRouter } from "./router.js";

/**
 * Called once the projects' owners are known (`owners`: project id -> organization id, from the
 * statistics listing), before any project is read by id: keys per organization route each project
 * to its own organization's key. Answers the problems that stop the import (none: go on).
 */
export type ImportBeforeReads = (
  owners: ReadonlyMap<string, string>,
  organizations: readonly Organization[],
) => Promise<readonly Diagnostic[]>;

/** The routing is set (warnings in `diagnostics`) and `beforeReads` routes the listed projects; or it failed. */
export type ImportRouting =
  | {
      readonly ok: true;
      readonly diagnostics: readonly Diagnostic[];
      readonly beforeReads: ImportBeforeReads;
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Routes `router`'s keys for an import, before its first read. */
export async function importRouting(router: OwnerRouter): Promise<ImportRouting> {
  const routing = await routeOwners(router, [], { everyKey: true });
  if (!routing.ok) return { ok: false, diagnostics: routing.diagnostics };
  const beforeReads: ImportBeforeReads = async (owners, orgs) => {
    if (router.keys.organizations.size === 0) return [];
    const names = new Map(orgs.map((o) => [o.id, o.display_name]));
    const owned = [...owners].flatMap(([id, org]) => {
      const name = names.get(org);
      return name !== undefined && router.keys.organizations.has(organizationSlug(name))
        ? [{ kind: "project" as const, id, address: id, organization: name }]
        : [];
    });
    const routed = await routeOwners(router, owned, { everyKey: true });
    return routed.ok ? [] : routed.diagnostics;
  };
  return { ok: true, diagnostics: routing.diagnostics, beforeReads };
}
