/**
 * Authentication and permission. 401 (authentication body) when `X-API-Key` is missing, malformed,
 * unknown, revoked or expired on the virtual clock. 403 (authentication body) when the key's type
 * or scopes do not allow the request: reads need type read-write and scope `public:read`; writes
 * (POST, PATCH) need type read-write or write-only and scope `public:write`; deletes need type
 * read-write or delete-only and scope `public:delete`.
 */
import type { KeyType } from "../../contract/limits.js";
import type { AuthContext } from "../context.js";
import { subtree } from "../scope.js";
import type { World } from "../state/world.js";
import { type ApiResponse, authError } from "./responses.js";
import type { HttpMethod } from "./router.js";

const KEY_FORMAT = /^pc_live_[A-Za-z0-9_]{8,120}$/;

export function authenticate(
  world: World,
  header: string | undefined,
  nowMs: number,
): AuthContext | ApiResponse {
  if (header === undefined || header === "")
    return authError(401, "Unauthorized", "Missing API key: send it in the X-API-Key header");
  if (!KEY_FORMAT.test(header)) return authError(401, "Unauthorized", "Malformed API key");
  const key = world.apiKeys[header];
  if (key === undefined) return authError(401, "Unauthorized", "Invalid API key");
  if (key.revoked) return authError(401, "Unauthorized", "API key has been revoked");
  if (key.expires_at !== null && Date.parse(key.expires_at) <= nowMs)
    return authError(401, "Unauthorized", "API key has expired");
  return { key, orgIds: subtree(world, key.organization_id) };
}

type Access = "read" | "write" | "delete";

function accessOf(method: HttpMethod): Access {
  switch (method) {
    case "GET":
      return "read";
    case "POST":
    case "PATCH":
      return "write";
    case "DELETE":
      return "delete";
  }
}

function typeAllows(type: KeyType, access: Access): boolean {
  switch (type) {
    case "read-write":
      return true;
    case "write-only":
      return access === "write";
    case "delete-only":
      return access === "delete";
  }
}

/** Undefined when allowed, else the 403 authentication-body response. */
export function checkPermission(auth: AuthContext, method: HttpMethod): ApiResponse | undefined {
  const access = accessOf(method);
  if (!typeAllows(auth.key.type, access))
    return authError(403, "Forbidden", `A ${auth.key.type} API key cannot ${access} this resource`);
  const scope = `public:${access}`;
  if (!auth.key.scopes.includes(scope))
    return authError(403, "Forbidden", `API key lacks required scope: ${scope}`);
  return undefined;
}

export function isAuth(value: AuthContext | ApiResponse): value is AuthContext {
  return "key" in value;
}
