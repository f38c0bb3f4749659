/**
 * Whether a failed request says something about the key itself: the API refused it (401, or a 403:
 * revoked, expired, another organization's, a missing scope). Any other failure (a 5xx, a 429, the
 * network) says nothing about the key, which may well be good: reading again may succeed.
 */
import type { ApiError } from "./result.js";

export function refusesKey(error: ApiError): boolean {
  return error.kind === "http" && (error.status === 401 || error.status === 403);
}
