/**
 * One try of a tripped guard's pause (a poll makes at most one try per pending pause), through the
 * API client's endpoint functions and the one write executor (`src/api/write-executor.ts`); it does
 * no other IO. The loop keeps the pause pending across polls until a try lands or ends it.
 *
 * 1. **A send rests on a read made in the same run**: the project is read by id first. `paused`:
 *    landed (ours, a racing watch's, or a person's: it no longer sends). Another status that does
 *    not send (`completed`, ...): ended. A read that fails: still pending, nothing sent.
 * 2. **The key** (design.md "Idempotency keys", Turn 4): the project's organization, action `pause`,
 *    the guard (not the figures of the moment), and `based_on` = the `updated_at` of the first read
 *    that succeeded after the trip. Later tries reuse it, so every try of the run, and a racing watch
 *    that read the same version, replay one pause. The body is `{reason}` (the figures of whoever
 *    came first; a racing watch whose figures differ gets 422 IDEMPOTENCY_MISMATCH, and its re-read
 *    finds the project `paused`: landed, as for the first).
 * 3. **The executor's rules**: attempt budget, backoff with `Retry-After`, retry classes; an unknown
 *    outcome is settled by re-reading the project (`paused` -> happened, still sending -> send again
 *    with the same key, anything else -> it ended). A refused 4xx stops the attempts, and is
 *    settled by re-reading too (design.md, Principle 3): `paused` -> landed (a racing watch's or a
 *    person's pause), no longer sending -> ended, still sending (or the read fails) -> pending.
 * 4. **Re-read after** an accepted pause: a live `paused` confirms it; a project still sending after
 *    a *replayed* answer was paused by this key earlier and started again since (landed: the next
 *    poll judges it again, with a new key); after a fresh answer it is still pending.
 */

import {
  type ApiError,
  apiErrorDiagnostic,
  type Endpoints,
  idempotencyKey,
  type Sleep,
} from "../api/index.js";
import { executeWrite, type Reread } from "../api/write-executor.js";
import type { PauseRequest, Project } from "../contract/resources.js";
import { isSending } from "../status/sending.js";
import type { GuardName } from "./guard-judge.js";

/** The endpoint functions a guard's pause uses. */
export type PausePort = Pick<Endpoints, "getProject" | "pauseProject">;

export interface PauseDeps {
  readonly port: PausePort;
  /** The executor's waits between attempts (the client keeps its own sleep). */
  readonly sleep: Sleep;
  /** Ctrl-C: no new attempt starts, waits end at once. */
  readonly signal: AbortSignal;
  /** Attempts of the pause request per try, whatever the answers (default 5, as apply). */
  readonly maxSends: number;
  /** Wait after the first failed attempt, doubling, raised to `Retry-After` (default 1 s, as apply). */
  readonly backoffMs: number;
}

/** What one try is asked to do: the project, its guard, the reason, and the key of an earlier try. */
export interface PauseTry {
  readonly id: string;
  readonly guard: GuardName;
  readonly reason: string;
  /** The key of an earlier try of this pause (reused as is), or null before any read succeeded. */
  readonly key: string | null;
}

/**
 * What one try came to. Invariants: `sends` counts the pause requests of this try; `key` is null only
 * when no read succeeded (nothing sent); `pending` carries the error in words.
 */
export type PauseTryResult =
  | {
      readonly outcome: "landed";
      readonly key: string | null;
      readonly sends: number;
      readonly replayed: boolean;
      readonly pauseReason: string | null;
    }
  | {
      readonly outcome: "ended";
      readonly key: string | null;
      readonly sends: number;
      readonly status: string;
      readonly pauseReason: string | null;
    }
  | {
      readonly outcome: "pending";
      readonly key: string | null;
      readonly sends: number;
      readonly error: string;
    };

/** The key of a guard's pause: project (with its organization), guard and the live version read. */
export function guardPauseKey(
  project: Pick<Project, "organization_id" | "project_id" | "updated_at">,
  guard: GuardName,
): string {
  return idempotencyKey({
    org: project.organization_id,
    project_id: project.project_id,
    action: "pause",
    body: { guard },
    based_on: project.updated_at,
  });
}

/** One try of the pause (see the module comment). */
export async function tryPause(t: PauseTry, deps: PauseDeps): Promise<PauseTryResult> {
  const before = await deps.port.getProject(t.id);
  if (!before.ok)
    return {
      outcome: "pending",
      key: t.key,
      sends: 0,
      error: `read before the pause: ${describe(before.error)}`,
    };
  const read = settledBy(before.value, t.key, 0, false);
  if (read !== null) return read;
  const key = t.key ?? guardPauseKey(before.value, t.guard);
  const body: PauseRequest = { reason: t.reason };
  const outcome = await executeWrite<unknown, Project>(
    {
      send: () => deps.port.pauseProject(t.id, body, key),
      reread: () => reread(t.id, deps.port),
    },
    { maxAttempts: deps.maxSends, firstBackoffMs: deps.backoffMs, sleep: deps.sleep, signal: deps.signal },
  );
  const sends = outcome.sends;
  const pending = (error: string): PauseTryResult => ({ outcome: "pending", key, sends, error });
  switch (outcome.kind) {
    case "accepted": {
      const after = await deps.port.getProject(t.id);
      if (!after.ok) return pending(`the pause was accepted; the re-read failed: ${describe(after.error)}`);
      const settled = settledBy(after.value, key, sends, outcome.replayed);
      if (settled !== null) return settled;
      // A replay is the stored answer of a pause this key made (an earlier attempt's whose answer was
      // lost, or a racing watch's): it landed, and the project was started again since. Landed: the
      // next poll sees it sending and judges it again (a new pause, a new key); pending would send
      // this spent key on every poll, each replayed, none pausing it.
      if (outcome.replayed)
        return {
          outcome: "landed",
          key,
          sends,
          replayed: true,
          pauseReason: after.value.pause_reason ?? null,
        };
      return pending(`the pause was accepted, but the project reads ${after.value.status}`);
    }
    case "happened":
    case "changed": {
      const project = outcome.reread.value;
      const settled = project === null ? null : settledBy(project, key, sends, false);
      return settled ?? pending(outcome.reread.text);
    }
    case "unreadable":
    case "unknown":
      return pending(`${describe(outcome.error)}; ${outcome.reread.text}`);
    case "refused": {
      const after = await reread(t.id, deps.port);
      const settled = after.value === null ? null : settledBy(after.value, key, sends, false);
      return settled ?? pending(`${describe(outcome.error)}; ${after.text}`);
    }
    case "not-taken":
      return pending(
        `${describe(outcome.error)}${outcome.kind === "not-taken" && outcome.interrupted ? "; interrupted" : ""}`,
      );
    case "blocked":
    case "stopped":
      return pending(outcome.refusal);
  }
}

/** A project that no longer sends settles the pause: `paused` lands it, anything else ends it. */
function settledBy(
  project: Project,
  key: string | null,
  sends: number,
  replayed: boolean,
): PauseTryResult | null {
  const pauseReason = project.pause_reason ?? null;
  if (project.status === "paused") return { outcome: "landed", key, sends, replayed, pauseReason };
  if (!isSending(project.status))
    return { outcome: "ended", key, sends, status: project.status, pauseReason };
  return null;
}

async function reread(id: string, port: PausePort): Promise<Reread<Project>> {
  const res = await port.getProject(id);
  if (!res.ok) return { verdict: "unreadable", text: `re-read failed: ${describe(res.error)}`, value: null };
  const status = res.value.status;
  if (status === "paused") return { verdict: "happened", text: "the project reads paused", value: res.value };
  if (isSending(status))
    return { verdict: "not-happened", text: `the project still reads ${status}`, value: res.value };
  return { verdict: "changed", text: `the project now reads ${status}`, value: res.value };
}

function describe(error: ApiError): string {
  return apiErrorDiagnostic(error).message;
}
