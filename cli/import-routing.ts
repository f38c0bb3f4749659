/**
 * How `import` (projects, and `--template`) reads with keys per organization: every key reads what
 * it sees (merged), each listed project is read with its own organization's key, a project id given
 * by hand with the first key that can see it (cli/organization-routing.ts). One implementation for
 * both forms of import.
 */
import { organizationSlug } from "../src/api/organization-keys.js";
import type { Diagnostic } from "../src/diagnostics/diagnostic.js";
import type { BeforeReads } from "../src/import/read-live.js";
import { routeOrganizations } from "./organization-routing.js";
import type { Session } from "./session.js";

/** The routing is set (warnings in `diagnostics`) and `beforeReads` routes the listed projects; or it failed. */
export type ImportRouting =
  | { readonly ok: true; readonly diagnostics: readonly Diagnostic[]; readonly beforeReads: BeforeReads }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Routes `session`'s keys for an import, before its first read. */
export async function importRouting(session: Session): Promise<ImportRouting> {
  const routing = await routeOrganizations(session, [], { everyKey: true });
  if (!routing.ok) return { ok: false, diagnostics: routing.diagnostics };
  const beforeReads: BeforeReads = async (owners, orgs) => {
    if (session.router === null) return [];
    const names = new Map(orgs.map((o) => [o.id, o.display_name]));
    const owned = [...owners].flatMap(([id, org]) => {
      const name = names.get(org);
      return name !== undefined && session.organizationKeys.has(organizationSlug(name))
        ? [{ id, address: id, organization: name }]
        : [];
    });
    const routed = await routeOrganizations(session, owned, { everyKey: true });
    return routed.ok ? [] : routed.diagnostics;
  };
  return { ok: true, diagnostics: routing.diagnostics, beforeReads };
}
