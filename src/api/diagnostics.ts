/**
 * Turns an API error into the one Diagnostic type, for reports. Invariant: the message names the
 * route and status, never the API key (errors are redacted when built). A 403 with the contract's
 * authentication body is a key without the permission the request needs (`api.missing-scope`): a
 * write-only key meets it on the first read, since plan and apply read before they send.
 */

import type { ApiCode } from "../diagnostics/codes/api.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { CROSS_ORGANIZATION_FLAG, crossOrganizationHint } from "./cross-organization.js";
import { refusesKey } from "./key-refusal.js";
import { isRateLimitStall, RATE_LIMIT_STALL_CODE } from "./rate-limit-stall.js";
import type { ApiError } from "./result.js";
import { isPortRefusal, refusedOwnerOrganization } from "./routing/write-guard.js";

function codeFor(error: ApiError): ApiCode {
  if (isRateLimitStall(error)) return "api.rate-limit-stuck";
  if (error.outcome === "unknown") return "api.unknown-outcome";
  if (error.kind === "network") return "api.network";
  if (error.status === 401) return "api.unauthorized";
  if (error.status === 403) return error.shape === "auth" ? "api.missing-scope" : "api.forbidden";
  if (error.status === 404) return "api.not-found";
  if (error.status === 429) return "api.rate-limited";
  if (error.status >= 500) return "api.server-error";
  return "api.rejected";
}

/** The scope a request needs (the contract names `public:read`; writes need `public:write`). */
function scopeFor(error: ApiError): string {
  return error.method === "GET" ? "public:read" : "public:write";
}

function hintFor(code: ApiCode, error: ApiError): string | undefined {
  switch (code) {
    case "api.unknown-outcome":
      return "Re-read the resource before retrying; a retry with the same Idempotency-Key is safe";
    case "api.network":
      return networkHint(error);
    case "api.unauthorized":
      return "The key is missing, malformed, revoked or expired; create a new key in the dashboard";
    case "api.forbidden":
      return "Use a key of an organization that owns the resource, with the needed scope";
    case "api.missing-scope":
      return error.method === "GET"
        ? "Use a read-write key with the scopes public:read and public:write: a write-only key can send but cannot read, and campaignctl reads every project before it plans or sends"
        : `Use a read-write key with the scopes public:read and public:write (this request needs ${scopeFor(error)})`;
    case "api.not-found":
      return "Check the id; the resource may belong to an organization the key cannot see";
    case "api.rate-limited":
      return "Another process may be using the same key; run again later";
    case "api.rate-limit-stuck":
      return "Against a sandbox whose clock is frozen or slow (--time-scale 0), start it with --no-rate-limits (nothing is counted) or move its clock (POST /_sandbox/clock/advance); against the API, check this machine's clock and whether another process uses the same key, then run again";
    case "api.server-error":
      return "Nothing happened; run again";
    case "api.rejected":
    case "api.no-key":
    case "api.bad-key-env":
    case "api.bad-url":
    case "api.insecure-url":
    case "api.no-organization-key":
    case "api.key-organization-mismatch":
    case "api.key-usable-again":
    case "api.listing-incomplete":
      return undefined;
  }
}

/** What to check for a transport failure, by its cause. Nothing was sent by a failed read. */
function networkHint(error: ApiError): string {
  if (error.kind !== "network") return "Check the base URL and connectivity, then run again";
  switch (error.cause) {
    case "dns":
      return "Check the host name of the base URL (--base-url, CAMPAIGNCTL_BASE_URL) and this machine's network and DNS (is it online?), then run again";
    case "connection-refused":
      return "Nothing listens there: check the base URL's host and port (is the server, or `campaignctl sandbox`, running?), then run again";
    case "tls":
      return "Check the base URL's host and this machine's clock and trusted certificates (a proxy that intercepts TLS?), then run again";
    default:
      return "Check the base URL and connectivity, then run again";
  }
}

/**
 * The group a failure is said in: the refused rate-limit waits (every request after the first is
 * refused alike) together; transport failures by cause and host; every other failure alone (null).
 */
function groupOf(error: ApiError): string | null {
  if (isRateLimitStall(error)) return RATE_LIMIT_STALL_CODE;
  if (error.kind !== "network" || error.host === undefined || error.outcome === "unknown") return null;
  return `${error.cause} ${error.host}`;
}

/**
 * The Diagnostics of several failed calls, as one per failure except that the transport failures
 * with the same cause at the same host (no network: every read of a run fails alike) are one
 * Diagnostic naming the host once and the requests that failed, and so are the requests whose
 * rate-limit wait was refused.
 */
export function apiErrorsDiagnostics(errors: readonly ApiError[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const grouped = new Map<string, ApiError[]>();
  for (const error of errors) {
    const key = groupOf(error);
    if (key === null) {
      out.push(apiErrorDiagnostic(error));
      continue;
    }
    const group = grouped.get(key);
    if (group === undefined) grouped.set(key, [error]);
    else group.push(error);
  }
  for (const group of grouped.values()) {
    const [first] = group;
    if (first === undefined) continue;
    const one = apiErrorDiagnostic(first);
    if (group.length === 1) {
      out.push(one);
      continue;
    }
    const reason = first.message.slice(first.message.indexOf(": ") + 2);
    out.push({
      ...one,
      message: `${reason}: ${group.length} requests failed (${group.map((e) => `${e.method} ${e.path}`).join(", ")})`,
    });
  }
  return out;
}

/** `the API key may not read: GET /organizations answered 403 (...); ... needs the scope public:read`. */
function missingScope(error: ApiError, said: string): string {
  const reading = error.method === "GET";
  const needs = reading ? "plan and apply read live state first, so the key needs" : "this request needs";
  return `the API key may not ${reading ? "read" : "write"}: ${error.route} answered 403 (${said}); ${needs} the scope ${scopeFor(error)}`;
}

/** A Diagnostic (severity error) describing `error`. */
export function apiErrorDiagnostic(error: ApiError): Diagnostic {
  if (isPortRefusal(error)) {
    // Refused by the write port before any request (the cross-organization rule): one code for every kind of write.
    const owner = refusedOwnerOrganization(error);
    return {
      severity: "error",
      code: "apply.cross-organization-key",
      message: error.message,
      hint:
        owner === null
          ? `check the key and the owner's organization, or pass ${CROSS_ORGANIZATION_FLAG} if every pipeline that writes there uses this same key`
          : crossOrganizationHint(owner),
    };
  }
  const code = codeFor(error);
  const said = error.message.trim().replace(/\.+$/, "");
  const correlation =
    error.kind === "http" && error.correlationId ? ` (correlation id ${error.correlationId})` : "";
  const what =
    error.kind !== "http"
      ? said
      : code === "api.missing-scope"
        ? missingScope(error, said) + correlation
        : `${error.route} answered ${error.status} ${error.code}: ${said}${correlation}`;
  const hint = hintFor(code, error);
  return hint === undefined
    ? { severity: "error", code, message: what }
    : { severity: "error", code, message: what, hint };
}

/**
 * The hint of a warning that a key could not be used (`error`: what its read answered), ending
 * with what still happens (`goesOn`). Only a refusal of the key (401, 403, a listing of no
 * organization) says to check the key; a failure of the API or the network (503, 429, a reset)
 * says what its own diagnostic says (run again), since the key may well be good.
 */
export function keyFailureHint(error: ApiError, goesOn: string): string {
  if (refusesKey(error)) return `check the key (revoked, expired, wrong scope); ${goesOn}`;
  const hint = hintFor(codeFor(error), error) ?? "run again";
  return `${hint.charAt(0).toLowerCase()}${hint.slice(1)}; ${goesOn}`;
}
