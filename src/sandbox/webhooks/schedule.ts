/**
 * Webhook retry schedule on the virtual clock: attempt 1 when the event is emitted, then retries
 * 30 seconds, 2 minutes and 10 minutes after the previous failed attempt (four attempts in all, as
 * the contract says); after the fourth failure the delivery is `missed`.
 */
import { WEBHOOK_ATTEMPTS } from "../../contract/limits.js";

export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000] as const;
export const MAX_ATTEMPTS = WEBHOOK_ATTEMPTS;

/** Delay before the attempt after `attempt` (1-based), or null when none follows. */
export function retryDelay(attempt: number): number | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  return RETRY_DELAYS_MS[attempt - 1] ?? null;
}
