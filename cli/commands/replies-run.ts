/**
 * `campaignctl replies run [paths...]`: the replies worker (src/replies/worker.ts). It takes
 * `message.replied` events from the listener's core (src/webhooks: the same verification, dedupe and
 * durable record as `webhooks listen`, in `<state>/webhooks/`) and polls `GET /conversations` at
 * most once a minute, settling each inbound at most once (src/replies/settle.ts). `--once` settles
 * the events recorded earlier, makes one pass when one is due, and exits (a cron job); without it
 * the worker runs until Ctrl-C (SIGINT) or SIGTERM. `--no-webhooks` polls only.
 *
 * Exit codes: 0 stopped cleanly (Ctrl-C, or `--once` with nothing left open); 1 the files, the
 * flags, the state or the connection are unusable, 402 INSUFFICIENT_BALANCE stopped the worker, or
 * (with `--once`) an answer's outcome is still unknown or a pass could not read.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { apiErrorDiagnostic, type Sleep } from "../../src/api/index.js";
import { routeReplies } from "../../src/api/routing/route-replies.js";
import { WRITE_FIRST_BACKOFF_MS, WRITE_MAX_ATTEMPTS } from "../../src/api/write-retry.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { revocationWords } from "../../src/message/reply-words.js";
import { REPLIES_RUN_FORMAT_VERSION } from "../../src/replies/events.js";
import { inboundOfEvent } from "../../src/replies/intake.js";
import { replyProjects } from "../../src/replies/projects.js";
import type { RepliesState } from "../../src/replies/state-file.js";
import { DEFAULT_FIRST_WINDOW_MS, POLL_INTERVAL_MS, RepliesWorker } from "../../src/replies/worker.js";
import { createRepliesRunView } from "../../src/report/replies-run-view.js";
import { createRedactor } from "../../src/text/redact.js";
import { Receiver } from "../../src/webhooks/receiver.js";
import type { RecordedEvent } from "../../src/webhooks/record.js";
import { startListenerServer } from "../../src/webhooks/server.js";
import { loadCampaign } from "../adapters/load-campaign.js";
import { openRecordFile } from "../adapters/record-file.js";
import { openRepliesState } from "../adapters/replies-state.js";
import { failWith, type JsonFailure } from "../fail.js";
import { DEFAULT_REPLIES_HOST, DEFAULT_REPLIES_PORT } from "../flag-defaults.js";
import type { Io } from "../io.js";
import type { KeyScopeFlags } from "../key-scope-flag.js";
import { failure, type Outcome, success } from "../outcome.js";
import { loadPolicy } from "../policy-file.js";
import { openSession, type SessionFlags, type SessionOptions } from "../session.js";
import { secretsFromEnv } from "./webhooks-flags.js";

/** The flags of `replies run`, as commander parses them. */
export interface RepliesRunFlags extends SessionFlags, KeyScopeFlags {
  readonly once?: boolean;
  readonly json?: boolean;
  /** False with `--no-webhooks`. */
  readonly webhooks?: boolean;
  /** `--port` as typed; undefined: DEFAULT_REPLIES_PORT. */
  readonly port?: number;
  /** `--host` as typed; undefined: 127.0.0.1. */
  readonly host?: string;
  readonly secretEnv?: readonly string[];
  readonly state: string;
  /** `--since DURATION` in ms: how far back the first pass reads (default a day). */
  readonly since?: number;
  /** `--segment-price USD`: written with each answer as its cost (docs/replies.md). */
  readonly segmentPrice?: number;
}

/** Injections for tests and benchmarks; the CLI passes none. */
export interface RepliesRunDeps {
  readonly session?: SessionOptions;
  /** The worker's waits (default: real timers, cut short by Ctrl-C). */
  readonly sleep?: Sleep;
  /** The API's clock for the worker (default: the session's). */
  readonly now?: () => number;
  /** Ctrl-C source (default SIGINT and SIGTERM); returns the unsubscribe. */
  readonly onInterrupt?: (handler: () => void) => () => void;
  readonly maxSends?: number;
  readonly backoffMs?: number;
  /** Called with the listener's URL once it serves, and how to close it (tests point the sandbox's endpoint at it). */
  readonly onListening?: (url: string, close: () => Promise<void>) => void;
}

export async function repliesRunCommand(
  paths: readonly string[],
  flags: RepliesRunFlags,
  io: Io,
  deps: RepliesRunDeps = {},
): Promise<Outcome> {
  const json: JsonFailure = { json: flags.json === true, formatVersion: REPLIES_RUN_FORMAT_VERSION };
  const webhooks = flags.webhooks !== false && flags.once !== true;
  const usage = listenerFlagsUnused(flags);
  if (usage.length > 0) return failWith(usage, new Map(), io, json);
  const host = flags.host ?? DEFAULT_REPLIES_HOST;
  const port = flags.port ?? DEFAULT_REPLIES_PORT;
  const loaded = loadCampaign(paths.length === 0 ? ["."] : paths, io.cwd);
  const sources = new Map(loaded.campaign.files.map((f) => [f.path, f.text]));
  const errors = loaded.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) return failWith(errors, sources, io, json);
  // The policies above the files may add revocation words (their `replies` rule).
  const policy = loadPolicy(
    {},
    loaded.campaign.files.map((f) => f.path),
    io.cwd,
  );
  if (!policy.ok) return failWith(policy.diagnostics, sources, io, json);
  const revocation = revocationWords(policy.policy?.rules.replies?.opt_out_words);
  const projects = replyProjects(loaded.campaign.projects);
  if (projects.length === 0) return failWith([noRules(paths)], sources, io, json);
  const secrets = webhooks ? secretsFromEnv(flags.secretEnv, io) : { ok: true as const, secrets: [] };
  if (!secrets.ok)
    return failWith(
      secrets.diagnostics.map((d) => ({
        ...d,
        hint: `${d.hint ?? ""}; or poll only with --no-webhooks (inbounds are then answered within a minute or two)`,
      })),
      new Map(),
      io,
      json,
    );
  const redact = createRedactor(secrets.secrets.map((s) => s.value));
  const view = createRepliesRunView(
    { stdout: (t) => io.stdout(redact(t)), stderr: (t) => io.stderr(redact(t)) },
    flags.json === true,
  );

  const stateDir = resolve(io.cwd, flags.state);
  const unusable = (error: unknown): Diagnostic => ({
    severity: "error",
    code: "replies.state-unusable",
    message: `Cannot use the state directory ${flags.state}: ${error instanceof Error ? error.message : String(error)}`,
    hint: "give a writable directory with --state",
  });
  try {
    mkdirSync(stateDir, { recursive: true });
  } catch (error) {
    return failWith([unusable(error)], new Map(), io, json);
  }
  // The listener's record (and its lock, which guards the whole state directory: one worker each).
  const opened = await openRecordFile(join(stateDir, "webhooks"), join(flags.state, "webhooks"));
  if (!opened.ok) {
    const d = opened.diagnostic;
    return failWith(
      [
        d.code === "webhooks.state-locked"
          ? { ...d, code: "replies.state-locked" }
          : { ...d, code: "replies.state-unusable" },
      ],
      new Map(),
      io,
      json,
    );
  }
  const file = opened.file;
  let state: RepliesState;
  try {
    state = await openRepliesState(stateDir);
  } catch (error) {
    await file.close();
    return failWith([unusable(error)], new Map(), io, json);
  }
  // Ctrl-C and SIGTERM stop the run within a second, whatever is in flight: the worker's calls and
  // waits end on `controller` (its waits return, its calls fail as stopped), and the client's own
  // waits (retries, a 429's Retry-After) are dropped: abandoned, they hold no timer that would keep
  // the process alive once it has stopped, and never resume (a retry loop would spin).
  const controller = new AbortController();
  const stoppable: Sleep = (ms) => delay(ms, undefined, { signal: controller.signal }).catch(() => undefined);
  const abandoned: Sleep = (ms) =>
    delay(ms, undefined, { signal: controller.signal }).catch(() => new Promise<void>(() => {}));
  const session = await openSession(flags, io, { sleep: abandoned, ...deps.session });
  if (!session.ok) {
    state.close();
    await file.close();
    return failWith(session.diagnostics, new Map(), io, json);
  }
  const s = session.session;
  // Keys per organization: each reply project's reads and answers go with its own organization's
  // key; answers the cross-organization rule refuses stop the worker before it starts.
  const routing = await routeReplies(s.router, loaded.campaign.projects, flags);
  const refused = routing.ok
    ? routing.diagnostics.filter((d) => d.severity === "error")
    : routing.diagnostics;
  if (refused.length > 0) {
    state.close();
    await file.close();
    await s.close();
    return failWith(refused, sources, io, json);
  }
  // The worker's clock is the API's (the window, the cursor, the pace of passes): learn it first.
  if (deps.now === undefined && s.sandbox === null && s.clockReading() === null) {
    const probe = await s.client.listOrganizations();
    if (!probe.ok) {
      state.close();
      await file.close();
      await s.close();
      return failWith([apiErrorDiagnostic(probe.error)], new Map(), io, json);
    }
  }
  const unsubscribe = (deps.onInterrupt ?? onStopSignal)(() => {
    io.stderr(
      "\nInterrupt received: replies run stops now (an answer cut short in flight is settled by the next run).\n",
    );
    controller.abort();
  });
  const sleep: Sleep = deps.sleep ?? stoppable;
  const now = deps.now ?? (() => s.now().getTime());
  const worker = new RepliesWorker({
    // The router: it routes each read and answer by the conversation's project (placeConversation).
    port: s.router,
    state,
    revocation,
    now,
    sleep,
    signal: controller.signal,
    maxSends: deps.maxSends ?? WRITE_MAX_ATTEMPTS,
    backoffMs: deps.backoffMs ?? WRITE_FIRST_BACKOFF_MS,
    segmentPriceUsd: flags.segmentPrice ?? null,
    projects,
    firstWindowMs: flags.since ?? DEFAULT_FIRST_WINDOW_MS,
    pollIntervalMs: POLL_INTERVAL_MS,
    until: flags.once === true ? "once" : "interrupted",
    onEvent: view,
  });
  const take = (events: readonly RecordedEvent[]): void => {
    for (const event of events) {
      const id = event.entry.event_id;
      if (!file.outbox.has(id))
        file.outbox.set(id, { event, attempts: 0, nextAt: 0, lastStatus: null, lastError: null });
      const handled = () => {
        if (!file.outbox.delete(id)) return;
        file.mark([
          { t: "forwarded", event_id: id, attempt: 1, at: new Date(now()).toISOString(), status: 200 },
        ]);
      };
      const job = inboundOfEvent(event);
      if (job === null) handled();
      else worker.enqueue({ ...job, done: handled });
    }
  };
  // Events recorded by an earlier run and not yet settled: first in line.
  take([...file.outbox.values()].map((item) => item.event));

  let server: { url: string; close(): Promise<void> } | null = null;
  let receiver: Receiver | null = null;
  if (webhooks) {
    receiver = new Receiver({
      secrets: secrets.secrets,
      clock: io.clock,
      events: new Set(["message.replied"]),
      store: file,
      outbox: { add: take },
      note: (note) => {
        if (note.type === "rejected" && note.rejection.diagnostic.severity !== "info")
          view({ type: "problem", at: new Date(now()).toISOString(), diagnostic: note.rejection.diagnostic });
        if (note.type === "problem")
          view({ type: "problem", at: new Date(now()).toISOString(), diagnostic: note.diagnostic });
      },
      onBug: (error) =>
        io.stderr(
          redact(
            `campaignctl replies: internal error: ${error instanceof Error ? error.message : String(error)}\n`,
          ),
        ),
    });
    const started = await startListenerServer(receiver, host, port);
    if (!started.ok) {
      unsubscribe();
      state.close();
      await file.close();
      await s.close();
      return failWith(
        [
          {
            severity: "error",
            code: "webhooks.listen-failed",
            message: `Cannot listen on ${host}:${port}: ${started.failure.message}`,
            hint: "pick another --port (0: any free port), or poll only with --no-webhooks",
          },
        ],
        new Map(),
        io,
        json,
      );
    }
    server = started.server;
    const serving = server;
    deps.onListening?.(serving.url, () => serving.close());
  }
  view({
    type: "started",
    format_version: REPLIES_RUN_FORMAT_VERSION,
    at: new Date(now()).toISOString(),
    state: flags.state,
    listening: server?.url ?? null,
    updated_since: state.cursor.updatedSince,
    answered_before: state.answered.size,
    projects: projects.map((p) => p.address),
  });
  for (const diagnostic of routing.diagnostics)
    view({ type: "problem", at: new Date(now()).toISOString(), diagnostic });
  // --since only sets where the first pass reads from: with a cursor it cannot take effect.
  if (flags.since !== undefined && state.cursor.updatedSince !== null)
    view({
      type: "problem",
      at: new Date(now()).toISOString(),
      diagnostic: {
        severity: "warning",
        code: "replies.since-unused",
        message: `--since is not used: ${join(flags.state, "cursor.json")} already reads from ${state.cursor.updatedSince}`,
        hint: "--since sets only the first pass's window; to read further back, run `replies plan --since` to see the inbounds, or start with a new --state directory",
      },
    });
  if (state.torn > 0)
    view({
      type: "problem",
      at: new Date(now()).toISOString(),
      diagnostic: {
        severity: "warning",
        code: "replies.record-torn",
        message: `The last line of ${join(flags.state, "answered.jsonl")} was cut short (${state.torn} bytes) by a kill: cut off`,
        hint: "that inbound is settled again from its thread: its answer, if it went out, is found there",
      },
    });
  try {
    const summary = await worker.run();
    if (summary.reason === "insufficient-balance") return failure;
    if (flags.once === true && (summary.pending > 0 || summary.failedPasses > 0)) return failure;
    return success;
  } finally {
    unsubscribe();
    await server?.close();
    await receiver?.drained();
    state.close();
    await file.close();
    await s.close();
  }
}

/**
 * `--port`, `--host` and `--secret-env` configure the event listener: with `--once` or
 * `--no-webhooks` there is none, and a flag that cannot take effect is a usage error.
 */
function listenerFlagsUnused(flags: RepliesRunFlags): Diagnostic[] {
  const why = flags.once === true ? "--once" : flags.webhooks === false ? "--no-webhooks" : null;
  if (why === null) return [];
  const typed = [
    flags.port === undefined ? null : "--port",
    flags.host === undefined ? null : "--host",
    flags.secretEnv === undefined ? null : "--secret-env",
  ].filter((f): f is string => f !== null);
  return typed.map((flag) => ({
    severity: "error",
    code: "cli.usage",
    message: `${flag} configures the event listener, and ${why} runs none`,
    hint:
      why === "--once"
        ? `drop ${flag}: --once settles recorded events and polls (events need the long-running worker, without --once)`
        : `drop ${flag}, or drop --no-webhooks to listen for message.replied events`,
  }));
}

function noRules(paths: readonly string[]): Diagnostic {
  return {
    severity: "error",
    code: "replies.no-rules",
    message: `No project in ${paths.length === 0 ? "." : paths.join(", ")} has reply rules`,
    hint: "add `replies:` with rules to a project (or to `defaults`); docs/replies.md",
  };
}

/** SIGINT (Ctrl-C) and SIGTERM. */
function onStopSignal(handler: () => void): () => void {
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return () => {
    process.off("SIGINT", handler);
    process.off("SIGTERM", handler);
  };
}
