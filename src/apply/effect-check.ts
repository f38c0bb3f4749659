/**
 * The effect check: did an action's request take effect? Pure. Used after an unknown outcome (a
 * 5xx other than SEND_ENQUEUE_FAILED, a timeout, a dropped connection): the project is re-read and
 * compared with the live basis the action was sent from, by the lifecycle (`src/plan/lifecycle.ts`).
 *
 * Rules, in order (`basis` is the status and `updated_at` the request was conditional on;
 * `updated_at` is compared as an instant with {@link sameInstant}, and one that cannot be read on
 * either side counts as moved, so rule 2 never holds on it):
 * 1. The live status proves the action's effect (its `proof` in the lifecycle) and differs from the
 *    basis status, or equals it but `updated_at` moved: **happened**. A project leaves draft only by
 *    a test send, and reaches scheduled (or later active, completed, paused) only by a schedule, so
 *    the status alone proves the transition; whether it was this run, a concurrent run with the
 *    same key, or a person, it must not be done again (the texts would go out twice).
 * 2. Status and `updated_at` both equal the basis: **not-happened**; resending with the same key is
 *    safe (if the first request is still running, the API answers 409 and then replays it).
 * 3. Anything else (the project moved, but not to where this action leads): **changed**. For a test
 *    or a schedule this is someone else's edit, so nothing more is sent to this project (nothing
 *    unreviewed goes out). An action that sends no texts (a pause) is **not-happened** while the
 *    project is still where it is sent from (scheduled or active, e.g. it went active by itself):
 *    pausing is idempotent.
 */
import { sameInstant } from "../contract/instant.js";
import { isSentFrom, LIFECYCLE, provesEffect } from "../plan/lifecycle.js";
import type { ActionKind, LiveBasis } from "../plan/types.js";
import type { EffectVerdict } from "./events.js";

/** What a re-read says about an action's effect. */
export interface EffectCheck {
  readonly verdict: Exclude<EffectVerdict, "unreadable">;
  /** One sentence for the report (`re-read: status awaiting_test (was draft)`). */
  readonly text: string;
}

export function checkEffect(kind: ActionKind, basis: LiveBasis, live: LiveBasis): EffectCheck {
  const moved = !sameInstant(live.updated_at, basis.updated_at);
  const was = `was ${basis.status}, updated_at ${basis.updated_at}`;
  const now = `status ${live.status}, updated_at ${live.updated_at}`;
  if (provesEffect(kind, live.status) && (live.status !== basis.status || moved))
    return { verdict: "happened", text: `re-read: ${now} (${was}); the ${kind} took effect` };
  if (!moved && live.status === basis.status)
    return { verdict: "not-happened", text: `re-read: ${now}, unchanged; the ${kind} had not taken effect` };
  if (!LIFECYCLE[kind].sendsTexts && isSentFrom(kind, live.status))
    return {
      verdict: "not-happened",
      text: `re-read: ${now} (${was}); still sending, so the ${kind} had not taken effect`,
    };
  return {
    verdict: "changed",
    text: `re-read: ${now} (${was}); the project changed, but not by this ${kind}`,
  };
}
