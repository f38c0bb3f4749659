/**
 * What a failed request says about the key and about trying again: the API refused the key (401,
 * or a 403: revoked, expired, another organization's, a missing scope), or nothing answers there
 * at all (a refused connection, a name that does not resolve, a TLS failure: the base URL or this
 * machine); any other failure (a 5xx, a 429, a reset or a timeout, each after the client's
 * retries) is a blip the key has nothing to do with, that reading again may get past.
 */
import type { ApiError } from "./result.js";

/** The API refused the key (401, 403). */
export function refusesKey(error: ApiError): boolean {
  return error.kind === "http" && (error.status === 401 || error.status === 403);
}

/** Neither the key's fault nor a place where nothing answers: a read again may succeed. */
export function mayPassOnRereading(error: ApiError): boolean {
  if (error.kind === "http") return !refusesKey(error);
  switch (error.cause) {
    case "connection-refused":
    case "dns":
    case "tls":
      return false;
    case "connection-reset":
    case "timeout":
    case "malformed-response":
    case "other":
      return true;
  }
}
