/**
 * Sends one round's actions: independent of each other (the decision step sends an action only
 * once its dependencies ended), up to `parallelism` in flight, every request through the client's
 * one rate limiter. On abort, requests in flight finish (an unknown outcome in flight is still
 * resolved) and the rest end `not-started`.
 */
import { ownActionError } from "./action-error.js";
import { type PerformDeps, performAction, type Sendable } from "./perform.js";
import { unsentResult } from "./result.js";
import type { ActionResult } from "./types.js";

export async function dispatch(
  batch: readonly Sendable[],
  deps: PerformDeps,
  parallelism: number,
  onResult: (sendable: Sendable, result: ActionResult) => void,
  onStart: (sendable: Sendable) => void = () => {},
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const s = batch[next++];
      if (s === undefined) return;
      if (deps.signal.aborted) {
        onResult(s, unsentResult(s.action, "not-started", "interrupted (Ctrl-C) before it started"));
        continue;
      }
      onStart(s);
      const result = await performAction(s, deps).catch(
        (error: unknown): ActionResult => ({
          ...unsentResult(s.action, "failed", "internal error while applying"),
          error: ownActionError(
            "apply.internal-error",
            error instanceof Error ? error.message : String(error),
          ),
        }),
      );
      onResult(s, result);
    }
  };
  const width = Math.max(1, Math.min(Math.floor(parallelism), batch.length));
  await Promise.all(Array.from({ length: width }, worker));
}
