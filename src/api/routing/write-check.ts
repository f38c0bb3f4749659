/**
 * What the cross-organization rule will say of a command's writes, before any of them: the owners'
 * organizations as their files name them, judged against the keys they are routed to, by the one
 * rule (cross-organization.ts). `replies run` refuses to start on it (and `replies plan` shows it);
 * the write port still judges each write by the live owner (write-guard.ts). An owner whose file
 * names no organization is left to the port (it reads the owner once, at its first write).
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import {
  CROSS_ORGANIZATION_ALLOWED_HINT,
  CROSS_ORGANIZATION_FLAG,
  crossOrganizationHint,
  crossOrganizationReason,
  crossOrganizationVerdict,
  type WriteKind,
} from "../cross-organization.js";
import { type Owner, ownerLabel, ownerRange } from "./owners.js";
import { type RoutingOptions, type RoutingResult, routeOwners } from "./route-owners.js";
import type { OwnerRouter } from "./router.js";
import { namedOrganization, OWNER_NOUN, WRITE_WORDS } from "./write-guard.js";

/** One diagnostic (`apply.cross-organization-key`) per owner whose `write`s the rule refuses (error) or the flag allows (warning). */
export async function checkWrites(
  router: OwnerRouter,
  write: WriteKind,
  owners: readonly Owner[],
  allowed: boolean,
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const owner of owners) {
    const client = owner.organization === undefined ? null : router.ownerClient(owner);
    if (client === null) continue;
    const key = await router.identities.of(client);
    if (!key.ok) continue;
    const named = namedOrganization(owner.organization, key);
    if (!named.ok) continue;
    const verdict = crossOrganizationVerdict({
      write,
      keyOrganization: key.root.id,
      ownerOrganization: named.id,
      allowed,
    });
    const range = ownerRange(owner);
    const why = `${ownerLabel(owner)}: ${crossOrganizationReason(key.root.id, named.id, OWNER_NOUN[owner.kind])}`;
    if (verdict === "refused")
      out.push({
        severity: "error",
        code: "apply.cross-organization-key",
        message: `${why}: its ${WRITE_WORDS[write]}s are not sent with this key`,
        ...(range === undefined ? {} : { range }),
        hint: crossOrganizationHint(named.id),
      });
    else if (verdict === "allowed")
      out.push({
        severity: "warning",
        code: "apply.cross-organization-key",
        message: `${why} (allowed by ${CROSS_ORGANIZATION_FLAG})`,
        ...(range === undefined ? {} : { range }),
        hint: CROSS_ORGANIZATION_ALLOWED_HINT,
      });
  }
  return out;
}

/**
 * Routes `owners` (route-owners.ts) and adds, to its diagnostics, what the rule says of `writers`'
 * `write`s: a command that writes says its refusals before any request of them (the write port
 * refuses them again).
 */
export async function routeAndCheckWrites(
  router: OwnerRouter,
  owners: readonly Owner[],
  writes: { readonly write: WriteKind; readonly owners: readonly Owner[] },
  options: RoutingOptions = {},
): Promise<RoutingResult> {
  const routing = await routeOwners(router, owners, options);
  if (!routing.ok) return routing;
  const said = await checkWrites(
    router,
    writes.write,
    writes.owners,
    options.allowCrossOrganizationKey === true,
  );
  return { ...routing, diagnostics: [...routing.diagnostics, ...said] };
}
