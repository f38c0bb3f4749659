/**
 * The executor: walks the plan's action graph in dependency order, independent actions in parallel
 * up to `parallelism` (every request through the client's one rate limiter), and returns the
 * `ApplyResult`. Deterministic apart from the port: clock, sleep and the API are injected; progress
 * is a stream of events.
 *
 * - `blocked` actions are not attempted; actions depending on a failed, blocked or skipped action
 *   are `skipped`; on one that ended deferred they stay `deferred` (they wait for it).
 * - `deferred` actions stay deferred unless `waitForApproval` is set: then, once their dependencies
 *   are done, the project is polled until it is `ready` and the schedule is sent in this run.
 * - The abort signal: requests in flight finish (an unknown outcome in flight is still resolved),
 *   nothing new starts, the rest ends `not-started` (a schedule waiting for approval: `deferred`).
 */
import type { Action, LiveBasis, Plan } from "../plan/types.js";
import { awaitApproval } from "./approval.js";
import { performAction, type Sendable } from "./perform.js";
import type { ApplyPort, ExecuteOptions } from "./port.js";
import { requestsBetween, summarizeResults, unsentResult } from "./result.js";
import { type ActionResult, APPLY_FORMAT_VERSION, type ApplyResult } from "./types.js";
import { isoAt } from "./waits.js";

export const DEFAULT_PARALLELISM = 4;

/** Dependency end states that let a dependent go ahead. */
const GOOD = new Set<ActionResult["status"]>(["done", "replayed"]);

export async function executePlan(
  plan: Plan,
  port: ApplyPort,
  options: ExecuteOptions,
): Promise<ApplyResult> {
  const { clock, signal } = options;
  const emit = options.onEvent;
  const parallelism = Math.max(1, Math.floor(options.parallelism));
  const startMs = clock.now();
  const baseline = options.baseline === undefined ? port.stats() : options.baseline;
  const actions: readonly Action[] = plan.projects.flatMap((p) => p.actions);
  const basisOf = new Map<string, LiveBasis>();
  for (const p of plan.projects) if (p.live !== null) basisOf.set(p.project_id, p.live);
  const results = new Map<string, ActionResult>();
  const started = new Set<string>();
  const queue: Sendable[] = [];
  let running = 0;
  let waiting = 0;
  let interrupted = signal.aborted;
  const deadlineMs = options.waitForApproval === null ? null : startMs + options.waitForApproval;
  const perform = {
    port,
    clock,
    sleep: options.sleep,
    signal,
    emit,
    maxSends: options.maxSends ?? 5,
    backoffMs: options.backoffMs ?? 1000,
  };

  const finish = (action: Action, result: ActionResult) => {
    results.set(action.id, result);
    emit({
      type: "action-end",
      at: isoAt(clock.now()),
      id: action.id,
      status: result.status,
      reason: result.reason,
      resolution: result.resolution,
      error: result.error,
      attempts: result.attempts,
    });
  };
  const settle = (action: Action, status: ActionResult["status"], reason: string) =>
    finish(action, unsentResult(action, status, reason));

  const sendable = actions.filter(
    (a) => a.status === "planned" || (a.status === "deferred" && deadlineMs !== null),
  );
  emit({
    type: "run-start",
    at: isoAt(startMs),
    actions: actions.length,
    sendable: sendable.length,
    parallelism,
    wait_for_approval_ms: options.waitForApproval,
  });
  for (const a of actions)
    if (a.status === "blocked") settle(a, "blocked", a.block?.reason ?? "blocked by the plan");

  let onAbort = () => {};
  await new Promise<void>((allDone) => {
    const pump = () => {
      for (const action of actions) {
        if (results.has(action.id) || started.has(action.id)) continue;
        const deps = action.depends_on.map((id) => ({ id, r: results.get(id) }));
        if (deps.some((d) => d.r === undefined)) continue;
        const bad = deps.find(
          (d) =>
            d.r !== undefined &&
            !GOOD.has(d.r.status) &&
            d.r.status !== "deferred" &&
            d.r.status !== "not-started",
        );
        if (bad) {
          settle(action, "skipped", `it depends on ${bad.id}, which ended ${bad.r?.status}`);
          continue;
        }
        const notStarted = deps.find((d) => d.r?.status === "not-started");
        if (notStarted) {
          settle(action, "not-started", `it depends on ${notStarted.id}, which did not start`);
          continue;
        }
        const deferredDep = deps.find((d) => d.r?.status === "deferred");
        if (deferredDep) {
          settle(action, "deferred", `it waits for ${deferredDep.id}, which is deferred`);
          continue;
        }
        if (action.status === "deferred") {
          if (deadlineMs === null) {
            settle(action, "deferred", `waits for ${action.waits_for ?? "something outside campaignctl"}`);
            continue;
          }
          if (interrupted) {
            settle(action, "deferred", "interrupted before waiting for approval");
            continue;
          }
          started.add(action.id);
          waiting++;
          void wait(action, deadlineMs);
          continue;
        }
        if (interrupted) {
          settle(action, "not-started", "interrupted (Ctrl-C) before it started");
          continue;
        }
        const key = action.request.idempotency_key;
        const basis = basisOf.get(action.project_id);
        if (key === null || basis === undefined) {
          finish(action, {
            ...unsentResult(action, "failed", "the plan has no idempotency key or live basis for it"),
            error: {
              status: null,
              code: "apply.plan-invalid",
              message: `${action.id}: planned without a key or live state`,
            },
          });
          continue;
        }
        started.add(action.id);
        queue.push({ action, body: action.request.body, key, basis, note: null });
      }
      while (queue.length > 0 && running < parallelism) {
        const next = queue.shift() as Sendable;
        if (interrupted) {
          settle(next.action, "not-started", "interrupted (Ctrl-C) before it started");
          continue;
        }
        running++;
        void performAction(next, perform).then(
          (result) => {
            running--;
            finish(next.action, result);
            pump();
          },
          (error: unknown) => {
            running--;
            finish(next.action, {
              ...unsentResult(next.action, "failed", "internal error while applying"),
              error: {
                status: null,
                code: "internal",
                message: error instanceof Error ? error.message : String(error),
              },
            });
            pump();
          },
        );
      }
      if (results.size === actions.length) allDone();
    };

    const wait = async (action: Action, deadline: number) => {
      const outcome = await awaitApproval(action, {
        port,
        clock,
        sleep: options.sleep,
        signal,
        emit,
        deadlineMs: deadline,
        minIntervalMs: options.pollIntervalMs ?? 15_000,
        waiting: () => waiting,
        organizationId: options.organizationId,
        bodyFor: (now) => options.scheduleBodyFor?.(action.id, now) ?? action.request.body,
      }).catch((error: unknown) => ({ kind: "moved" as const, text: `internal error: ${String(error)}` }));
      waiting--;
      switch (outcome.kind) {
        case "ready":
          if (interrupted)
            settle(action, "deferred", "interrupted after the approval, before the schedule was sent");
          else queue.push(outcome.sendable);
          break;
        case "timeout":
          settle(
            action,
            "deferred",
            `the test was not approved within the wait (project ${outcome.status ?? "unreadable"})`,
          );
          break;
        case "interrupted":
          settle(action, "deferred", "interrupted (Ctrl-C) while waiting for approval");
          break;
        case "moved":
          finish(action, {
            ...unsentResult(action, "failed", "the project changed while waiting for approval"),
            error: {
              status: null,
              code: "apply.concurrent-change",
              message: `${action.address}: ${outcome.text}`,
            },
          });
          break;
      }
      pump();
    };

    onAbort = () => {
      if (interrupted) return;
      interrupted = true;
      emit({ type: "interrupt", at: isoAt(clock.now()), in_flight: running });
      pump();
    };
    if (signal.aborted) emit({ type: "interrupt", at: isoAt(clock.now()), in_flight: 0 });
    else signal.addEventListener("abort", onAbort, { once: true });
    pump();
  });
  signal.removeEventListener("abort", onAbort);

  const ordered = actions.map((a) => results.get(a.id) as ActionResult);
  const summary = summarizeResults(ordered);
  const finishedMs = clock.now();
  emit({ type: "run-end", at: isoAt(finishedMs), interrupted, summary });
  return {
    format_version: APPLY_FORMAT_VERSION,
    tool_version: options.toolVersion,
    base_url: plan.base_url,
    plan_created_at: plan.created_at,
    started_at: isoAt(startMs),
    finished_at: isoAt(finishedMs),
    interrupted,
    refused: [],
    actions: ordered,
    requests: requestsBetween(baseline, port.stats()),
    basis_reads: 0,
    unreadable: [],
    summary,
    journal: null,
  };
}
