/** Query-parameter helpers shared by the list endpoints: scope-checked organization filters, enums. */
import type { AuthContext } from "../context.js";
import { type ApiResponse, invalid, orgAccessDenied } from "../http/responses.js";
import { subtree } from "../scope.js";
import type { World } from "../state/world.js";

/**
 * The organizations a list may return: the key's subtree, narrowed by `organization_id` (that
 * organization and its descendants). A filter outside the key's hierarchy is 403 ORG_ACCESS_DENIED.
 */
export function orgScope(
  world: World,
  auth: AuthContext,
  requested: string | null,
): Set<string> | ApiResponse {
  if (requested === null || requested === "") return new Set(auth.orgIds);
  if (!auth.orgIds.has(requested)) return orgAccessDenied();
  return new Set(subtree(world, requested));
}

export function isResponse(value: unknown): value is ApiResponse {
  return typeof value === "object" && value !== null && "status" in value && "body" in value;
}

/** A query value that must be one of `allowed`; null when absent. */
export function enumParam<T extends string>(
  query: URLSearchParams,
  name: string,
  allowed: readonly T[],
): T | null | ApiResponse {
  const value = query.get(name);
  if (value === null || value === "") return null;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  return invalid([name], `${name} must be one of: ${allowed.join(", ")}`, "invalid_enum_value");
}
