/** The three error body shapes of the contract (Errors), and the codes it names. */

/** Standard error (4xx/5xx from the API). `details` is an array for VALIDATION_ERROR. */
export interface StandardErrorBody {
  error: string;
  code: string;
  correlationId?: string;
  details?: ValidationIssue[] | Record<string, unknown>;
}

/** A VALIDATION_ERROR detail item. `path` is the array of field names leading to the bad value. */
export interface ValidationIssue {
  code: string;
  path: (string | number)[];
  message: string;
  format?: string;
}

/** Authentication error (401 and permission 403). */
export interface AuthErrorBody {
  error: string;
  message: string;
}

/** Rate limit error (429); the `Retry-After` header carries the same seconds. */
export interface RateLimitErrorBody {
  success: false;
  error: string;
  message: string;
  code: "RATE_LIMIT_EXCEEDED";
  statusCode: 429;
  retryAfter: number;
}

/** Error codes the contract names. Its complete list is "not shown"; others may appear. */
export const CONTRACT_ERROR_CODES = [
  "VALIDATION_ERROR",
  "INSUFFICIENT_BALANCE",
  "ORG_ACCESS_DENIED",
  "EMAIL_EARLY_ACCESS",
  "PROJECT_NOT_FOUND",
  "CONVERSATION_NOT_FOUND",
  "PHONE_NUMBER_UNAVAILABLE",
  "CONTACT_OPTED_OUT",
  "CONVERSATION_NOT_SENDABLE",
  "PROJECT_DELETED",
  "IDEMPOTENCY_MISMATCH",
  "RATE_LIMIT_EXCEEDED",
  "INTERNAL_ERROR",
  "SEND_ENQUEUE_FAILED",
] as const;
export type ContractErrorCode = (typeof CONTRACT_ERROR_CODES)[number];
