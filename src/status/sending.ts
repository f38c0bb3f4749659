/** Which live statuses count as sending for `watch` and its guards. Pure. */

/** The live statuses of a project that sends or is about to: a guard may pause it from these. */
export const SENDING_STATUSES: readonly string[] = ["scheduled", "active"];

/** Whether a live status is one a project sends in (or is about to); null (unknown) is not. */
export function isSending(status: string | null): boolean {
  return status !== null && SENDING_STATUSES.includes(status);
}
