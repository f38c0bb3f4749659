/**
 * Pausing a project whose guard tripped, exactly once, through the API client's endpoint functions
 * (it does no other IO). The same rules as every send of `apply`:
 *
 * 1. **A send rests on a read made in the same run**: the project is read by id first. Only a
 *    project still sending (`scheduled` or `active`) is paused; one that completed or was paused
 *    meanwhile is left alone (`not-sending`).
 * 2. **Deterministic Idempotency-Key** (design.md "Idempotency keys"): action `pause`, the body
 *    `{reason}`, the project's own organization, `based_on` = the `updated_at` of that read. A rerun
 *    after a crash replays instead of pausing twice; a later pause (after a resume) gets a new key.
 * 3. **One retry layer** (src/apply/perform.ts): at most `maxSends` attempts (5) of the request in
 *    total, whatever the answers, waiting on one curve (`resendDelayMs` of src/api/write-retry.ts, the curve of
 *    `src/apply/waits.ts`) raised to `Retry-After`. 429, 503 SEND_ENQUEUE_FAILED and 409 with
 *    Retry-After: send again with the same key. Any other 5xx, a timeout, a dropped connection: the
 *    outcome is unknown, so re-read: paused -> done; still sending -> send again with the same key;
 *    anything else -> stop. Any other 4xx: refused, stop (`not-sending` when a re-read shows the
 *    project completed or paused meanwhile, else `failed`).
 * 4. **Re-read after**: the project is read once more; only a live `paused` confirms the pause.
 *
 * Ctrl-C (`signal`) cuts the waits short and sends nothing new; a request in flight finishes.
 */

import {
  type ApiError,
  apiErrorDiagnostic,
  type Endpoints,
  idempotencyKey,
  type Sleep,
  writeFailureOf,
} from "../api/index.js";
import {
  resendDelayMs,
  sleepUnlessAborted,
  WRITE_FIRST_BACKOFF_MS,
  WRITE_MAX_ATTEMPTS,
} from "../api/write-retry.js";
import type { PauseRequest, Project } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { isSending } from "../status/sending.js";

/** The endpoint functions a guard's pause uses. */
export type PausePort = Pick<Endpoints, "getProject" | "pauseProject">;

export interface PauseDeps {
  readonly port: PausePort;
  /** The pause's own waits between attempts (the client keeps its own sleep). */
  readonly sleep: Sleep;
  /** Ctrl-C: no new attempt starts, waits end at once. */
  readonly signal: AbortSignal;
  /** Attempts of the pause request in total, whatever the answers (default 5, as apply). */
  readonly maxSends?: number;
  /** Wait after the first failed attempt, doubling (default 1 s, as apply), raised to `Retry-After`. */
  readonly backoffMs?: number;
}

/**
 * What a guard's pause came to. Invariants: `paused` means a re-read after the pause saw `paused`;
 * `key` is null only when no pause was sent; `attempts` counts the pause requests sent (0 when the
 * read before showed it not sending, or failed); `failed` and `unknown` carry an error diagnostic,
 * and `unknown` means a request may still have paused the project (re-run: the key replays).
 */
export type PauseResult =
  | {
      readonly outcome: "paused";
      readonly key: string;
      readonly attempts: number;
      /** The API answered from its idempotency store (an earlier run with this key paused it). */
      readonly replayed: boolean;
      /** The live `pause_reason` after the pause, when the API shows one. */
      readonly pauseReason: string | null;
    }
  | {
      readonly outcome: "not-sending";
      readonly status: string;
      readonly pauseReason: string | null;
      /** The pause sent before the project was found not sending (refused), else null and 0. */
      readonly key: string | null;
      readonly attempts: number;
    }
  | {
      readonly outcome: "failed" | "unknown";
      readonly key: string | null;
      readonly attempts: number;
      readonly statusAfter: string | null;
      readonly diagnostic: Diagnostic;
    };

/** Pauses project `id` with `reason` (see the module comment). */
export async function pauseForGuard(id: string, reason: string, deps: PauseDeps): Promise<PauseResult> {
  const maxSends = Math.max(1, deps.maxSends ?? WRITE_MAX_ATTEMPTS);
  const backoffMs = deps.backoffMs ?? WRITE_FIRST_BACKOFF_MS;
  const failed = (
    outcome: "failed" | "unknown",
    key: string | null,
    attempts: number,
    statusAfter: string | null,
    message: string,
    hint: string,
  ): PauseResult => ({
    outcome,
    key,
    attempts,
    statusAfter,
    diagnostic: {
      severity: "error",
      code: outcome === "failed" ? "watch.pause-failed" : "watch.pause-unconfirmed",
      message: `project ${id}: ${message}`,
      hint,
    },
  });

  const before = await deps.port.getProject(id);
  if (!before.ok)
    return failed(
      "failed",
      null,
      0,
      null,
      `its guard tripped, but it could not be read before the pause (${describe(before.error)}); nothing was sent`,
      "pause it in the dashboard, or run watch again",
    );
  const project = before.value;
  if (!isSending(project.status))
    return {
      outcome: "not-sending",
      status: project.status,
      pauseReason: project.pause_reason ?? null,
      key: null,
      attempts: 0,
    };

  const body: PauseRequest = { reason };
  const key = idempotencyKey({
    org: project.organization_id,
    project_id: project.project_id,
    action: "pause",
    body,
    based_on: project.updated_at,
  });
  let attempts = 0;
  let replayed = false;
  let settled = false;
  let lastError: ApiError | null = null;
  for (let n = 1; n <= maxSends && !settled; n++) {
    if (n > 1) {
      if (deps.signal.aborted) break;
      await sleepUnlessAborted(
        deps.sleep,
        resendDelayMs(backoffMs, n - 1, retryAfterOf(lastError)),
        deps.signal,
      );
      if (deps.signal.aborted) break;
    }
    attempts++;
    const res = await deps.port.pauseProject(id, body, key);
    if (res.ok) {
      replayed = res.meta.replayed;
      settled = true;
      break;
    }
    lastError = res.error;
    const failure = writeFailureOf(res.error);
    if (failure === "refused") {
      // A 400 for a project that completed (or was paused) since the read: it no longer sends.
      const reread = await deps.port.getProject(id);
      if (reread.ok && !isSending(reread.value.status))
        return {
          outcome: "not-sending",
          status: reread.value.status,
          pauseReason: reread.value.pause_reason ?? null,
          key,
          attempts,
        };
      return failed(
        "failed",
        key,
        attempts,
        reread.ok ? reread.value.status : null,
        `the API refused the guard's pause: ${apiErrorDiagnostic(res.error).message}`,
        "check the project in the dashboard; pause it there if it is still sending",
      );
    }
    if (failure === "unknown") {
      const reread = await deps.port.getProject(id);
      if (reread.ok && reread.value.status === "paused") {
        settled = true;
        break;
      }
      if (reread.ok && !isSending(reread.value.status))
        return failed(
          "failed",
          key,
          attempts,
          reread.value.status,
          `the pause's outcome was unknown and the project is now ${reread.value.status}; nothing more was sent`,
          "check the project in the dashboard",
        );
    }
  }
  // A 409 still running, a 5xx or a timeout may yet have paused it: the re-read below decides.
  const uncertain = lastError !== null && lastError.outcome === "unknown";
  const notTaken = (): string =>
    `the guard's pause did not take effect after ${attempts} attempt${attempts === 1 ? "" : "s"}${lastError === null ? "" : ` (${describe(lastError)})`}${deps.signal.aborted ? "; interrupted" : ""}`;
  if (!settled && !uncertain)
    return failed("failed", key, attempts, null, notTaken(), "pause it in the dashboard, or run watch again");
  const after = await deps.port.getProject(id);
  if (!after.ok)
    return failed(
      "unknown",
      key,
      attempts,
      null,
      `${settled ? "the pause was accepted" : notTaken()}, and the project could not be re-read to confirm it (${describe(after.error)})`,
      "check the project in the dashboard; run watch again (the same key replays the pause)",
    );
  if (after.value.status !== "paused")
    return failed(
      "unknown",
      key,
      attempts,
      after.value.status,
      settled ? `the pause was accepted, but the project reads ${after.value.status}` : notTaken(),
      "check the project in the dashboard; run watch again (the same key replays the pause)",
    );
  return { outcome: "paused", key, attempts, replayed, pauseReason: pauseReasonOf(after.value) };
}

function pauseReasonOf(project: Project): string | null {
  return project.pause_reason ?? null;
}

function describe(error: ApiError): string {
  return apiErrorDiagnostic(error).message;
}

function retryAfterOf(error: ApiError | null): number | null {
  return error !== null && error.kind === "http" ? error.retryAfterSeconds : null;
}
