/**
 * A long run's keys that could not be used at its start, checked again (`watch`, `replies run`).
 * Routing happens once, before the first read (route-owners.ts); an organization's key whose
 * `GET /organizations` failed then (a blip that outlasted the client's retries and the second read:
 * key-identity.ts) leaves that organization's projects unread. A run of minutes or hours would
 * otherwise keep them unread for its whole length after a blip of seconds.
 *
 * So the run calls the check between its own steps (watch: after a poll's pauses, so that another
 * organization's tripped guard is never held back by it). At most once every
 * {@link KEY_RECHECK_INTERVAL_MS} of the API's clock it forgets the keys that failed for another
 * reason than the key itself (a key the API refused, 401 or 403, stays refused: key-refusal.ts) and
 * routes again with the run's own routing; a key that answers now is said (`api.key-usable-again`)
 * and its organization's requests go with it from then on. A key that still fails says nothing more
 * (the start's warning stands). The check ends for good when no key is left to check again, or when
 * routing again finds an error (a key that answers now but belongs to another organization): the
 * routes stay as they were, and the error is the run's.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { RoutingResult } from "./route-owners.js";
import type { OwnerRouter } from "./router.js";

/** The least time, on the API's clock, between two checks of the keys that failed. */
export const KEY_RECHECK_INTERVAL_MS = 60_000;

export interface KeyRecheckInput {
  readonly router: OwnerRouter;
  /** The run's own routing, again (the same owners and options as at the start). */
  readonly route: () => Promise<RoutingResult>;
  /** The API's clock, in milliseconds. */
  readonly now: () => number;
}

/**
 * The check, for a run whose start routed at `input.now()`: each call checks again when a minute
 * has passed since the last check and a key is left to check, and resolves to what it found (see
 * the module comment); otherwise it makes no request and finds nothing.
 */
export function keyRecheck(input: KeyRecheckInput): () => Promise<readonly Diagnostic[]> {
  let last = input.now();
  let ended = false;
  return async () => {
    if (ended || input.now() - last < KEY_RECHECK_INTERVAL_MS) return [];
    const failed = await input.router.identities.forgetFailures();
    if (failed.length === 0) {
      ended = true;
      return [];
    }
    const routed = await input.route();
    last = input.now();
    if (!routed.ok) {
      ended = true;
      return routed.diagnostics;
    }
    const usable: Diagnostic[] = [];
    for (const client of failed) {
      const identity = await input.router.identities.of(client);
      if (identity.ok) usable.push(usableAgain(input.router.keys.sourceOf(client) ?? "a key", identity.root));
    }
    // Errors of the run's own routing (the cross-organization rule of `replies run`) come with it.
    return [...usable, ...routed.diagnostics.filter((d) => d.severity === "error")];
  };
}

function usableAgain(
  source: string,
  root: { readonly display_name: string; readonly id: string },
): Diagnostic {
  return {
    severity: "info",
    code: "api.key-usable-again",
    message: `the key in ${source} answers now (organization "${root.display_name}", ${root.id}): the projects of its organization are read from now on`,
    hint: "nothing to do: the key could not be used at the start, and was checked again",
  };
}
