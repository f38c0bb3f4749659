/** The early-access answer of the email endpoints (403 EMAIL_EARLY_ACCESS): a state, not a failure. Pure. */
export function isEarlyAccess(error: {
  readonly kind: string;
  readonly status?: number | null;
  readonly code?: string;
}): boolean {
  return error.kind === "http" && error.status === 403 && error.code === "EMAIL_EARLY_ACCESS";
}
