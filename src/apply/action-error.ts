/**
 * Building an action's error (`ActionError`, `types.ts`) from where it arose: an API or transport
 * error as the client returned it, or a finding of campaignctl's own. Pure.
 */
import type { ApiError, ApiHttpError } from "../api/index.js";
import { CONTRACT_ERROR_CODES } from "../contract/errors.js";
import type { DiagnosticCode } from "../diagnostics/codes.js";
import type { ActionError, ApiErrorCode, CampaignctlActionError } from "./types.js";

const NAMED: ReadonlySet<string> = new Set<ApiErrorCode>([
  ...CONTRACT_ERROR_CODES,
  "UNAUTHORIZED",
  "FORBIDDEN",
]);

function isNamed(code: string): code is ApiErrorCode {
  return NAMED.has(code);
}

/**
 * The code the error body gave, or null when it gave none: the client names a body without a code
 * by its status (`UNAUTHORIZED`, `FORBIDDEN` for an authentication body, else `HTTP_<status>`).
 */
function bodyCode(e: ApiHttpError): string | null {
  if (e.shape === "auth" || e.code === `HTTP_${e.status}`) return null;
  return e.code;
}

/** An API or transport error of the client, as the action's error. */
export function apiActionError(e: ApiError): ActionError {
  switch (e.kind) {
    case "http":
      return {
        source: "api",
        status: e.status,
        code: isNamed(e.code) ? e.code : "UNLISTED",
        api_code: bodyCode(e),
        message: e.message,
      };
    case "network":
      return { source: "transport", status: e.status, cause: e.cause, message: e.message };
  }
}

/** A finding of campaignctl's own; `status`: the HTTP status of the action's last answer, if any. */
export function ownActionError(
  code: DiagnosticCode,
  message: string,
  status: number | null = null,
): CampaignctlActionError {
  return { source: "campaignctl", status, code, message };
}
