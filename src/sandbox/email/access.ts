/**
 * The email product's early access: an organization has email when it, or an ancestor, has
 * `email_available: true` in the fixture. Every email endpoint answers 403 EMAIL_EARLY_ACCESS
 * unless the key's organization has email, or the addressed record's organization (in the key's
 * scope) has it; list endpoints show records of the organizations in scope that have email. The
 * contract's email endpoints the sandbox does not emulate (templates, senders, suppressions, list
 * creation and reads, ...) answer 403 EMAIL_EARLY_ACCESS the same way, and 404 once email is open.
 */
import type { AuthContext } from "../context.js";
import { type ApiResponse, orgAccessDenied, standardError } from "../http/responses.js";
import type { World } from "../state/world.js";

export function emailEnabled(w: World, orgId: string): boolean {
  const seen = new Set<string>();
  for (let id: string | null = orgId; id !== null && !seen.has(id); ) {
    seen.add(id);
    const org: World["organizations"][string] | undefined = w.organizations[id];
    if (org === undefined) return false;
    if (org.email_available) return true;
    id = org.parent_id;
  }
  return false;
}

export function earlyAccess(): ApiResponse {
  return standardError(
    403,
    "EMAIL_EARLY_ACCESS",
    "The email API is in early access and not yet available to this organization",
  );
}

/**
 * The gate for one addressed email record: 403 EMAIL_EARLY_ACCESS first, then `missing` (404) for
 * an unknown record, then 403 ORG_ACCESS_DENIED outside the key's hierarchy; undefined to proceed.
 */
export function emailRecordGate(
  w: World,
  auth: AuthContext,
  recordOrgId: string | undefined,
  missing: () => ApiResponse,
): ApiResponse | undefined {
  const inScope = recordOrgId !== undefined && auth.orgIds.has(recordOrgId);
  const enabled =
    emailEnabled(w, auth.key.organization_id) ||
    (inScope && recordOrgId !== undefined && emailEnabled(w, recordOrgId));
  if (!enabled) return earlyAccess();
  if (recordOrgId === undefined) return missing();
  if (!inScope) return orgAccessDenied();
  return undefined;
}

/**
 * A request under `/email` that no route of the sandbox serves: 403 EMAIL_EARLY_ACCESS while no
 * organization in the key's scope has email (the contract: "any email endpoint"), else undefined
 * (the caller's 404). Undefined for every other path.
 */
export function unservedEmailGate(w: World, auth: AuthContext, path: string): ApiResponse | undefined {
  if (path !== "/email" && !path.startsWith("/email/")) return undefined;
  for (const id of auth.orgIds) if (emailEnabled(w, id)) return undefined;
  return earlyAccess();
}
