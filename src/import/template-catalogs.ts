/**
 * The catalogs one organization's names resolve in, for `import --template`: its own 10DLC
 * registrations, lists, numbers (with those shared with it), media and toll-free verifications and
 * the brands they carry, never another organization's, whatever the key can see (consent does not
 * transfer between senders). The same rule as the plan's (`belongsTo`, src/plan/resolve.ts), so a
 * name import writes resolves to the same record in the plan. Organizations stay all visible (an
 * instance names its organization). Pure.
 */
import type { Catalogs, ReferenceKind } from "../plan/catalogs.js";
import { belongsTo } from "../plan/resolve.js";

export function organizationCatalogs(catalogs: Catalogs, organizationId: string): Catalogs {
  const own = {} as Record<ReferenceKind, Catalogs[ReferenceKind]>;
  for (const kind of Object.keys(catalogs) as ReferenceKind[])
    own[kind] =
      kind === "organization" ? catalogs[kind] : catalogs[kind].filter((e) => belongsTo(e, organizationId));
  return own;
}
