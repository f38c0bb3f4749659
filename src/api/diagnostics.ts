/**
 * Turns an API error into the one Diagnostic type, for reports. Invariant: the message names the
 * route and status, never the API key (errors are redacted when built).
 */

import type { ApiCode } from "../diagnostics/codes/api.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ApiError } from "./result.js";

function codeFor(error: ApiError): ApiCode {
  if (error.outcome === "unknown") return "api.unknown-outcome";
  if (error.kind === "network") return "api.network";
  if (error.status === 401) return "api.unauthorized";
  if (error.status === 403) return "api.forbidden";
  if (error.status === 404) return "api.not-found";
  if (error.status === 429) return "api.rate-limited";
  if (error.status >= 500) return "api.server-error";
  return "api.rejected";
}

function hintFor(code: ApiCode): string | undefined {
  switch (code) {
    case "api.unknown-outcome":
      return "Re-read the resource before retrying; a retry with the same Idempotency-Key is safe";
    case "api.network":
      return "Check the base URL and connectivity, then run again";
    case "api.unauthorized":
      return "The key is missing, malformed, revoked or expired; create a new key in the dashboard";
    case "api.forbidden":
      return "Use a key of an organization that owns the resource, with the needed scope";
    case "api.not-found":
      return "Check the id; the resource may belong to an organization the key cannot see";
    case "api.rate-limited":
      return "Another process may be using the same key; run again later";
    case "api.server-error":
      return "Nothing happened; run again";
    case "api.rejected":
    case "api.no-key":
    case "api.bad-key-env":
    case "api.bad-url":
    case "api.insecure-url":
      return undefined;
  }
}

/** A Diagnostic (severity error) describing `error`. */
export function apiErrorDiagnostic(error: ApiError): Diagnostic {
  const code = codeFor(error);
  const said = error.message.trim().replace(/\.+$/, "");
  const what =
    error.kind === "http"
      ? `${error.route} answered ${error.status} ${error.code}: ${said}${error.correlationId ? ` (correlation id ${error.correlationId})` : ""}`
      : said;
  const hint = hintFor(code);
  return hint === undefined
    ? { severity: "error", code, message: what }
    : { severity: "error", code, message: what, hint };
}
