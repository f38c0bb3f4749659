/**
 * The mark of a pause made by a guard. `campaignctl watch` pauses a project whose guard tripped
 * with a `reason` that starts with {@link GUARD_PAUSE_REASON_PREFIX} and names the guard and the
 * figures (`guard: failure rate 7.2% > 5% (36 of 500 sent)`); the API stores it and returns it as
 * `pause_reason` on `GET /projects/{id}`, and the planner recognises it there (`plan.guard-paused`).
 * Both sides import the prefix from here, the lowest layer they share. Pure.
 *
 * Invariant: a reason built with the prefix is 1 to `PAUSE_REASON_MAX` (100) characters, as every
 * pause reason (contract: Limits); the prefix itself is 7.
 */

/** How a guard's pause reason starts: `guard: ` (lower case, one space). */
export const GUARD_PAUSE_REASON_PREFIX = "guard: ";

/** Whether a live `pause_reason` marks a pause made by a guard (exact, case-sensitive prefix). */
export function isGuardPauseReason(reason: string | null | undefined): reason is string {
  return typeof reason === "string" && reason.startsWith(GUARD_PAUSE_REASON_PREFIX);
}
