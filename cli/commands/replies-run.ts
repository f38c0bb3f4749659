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
import { join } from "node:path";
import { apiErrorDiagnostic, type Sleep } from "../../src/api/index.js";
import { keyRecheck } from "../../src/api/routing/key-recheck.js";
import type { RoutingResult } from "../../src/api/routing/route-owners.js";
import { routeReplies, unreadReplyProjects } from "../../src/api/routing/route-replies.js";
import { WRITE_FIRST_BACKOFF_MS, WRITE_MAX_ATTEMPTS } from "../../src/api/write-retry.js";
import { REPLIES_RUN_FORMAT_VERSION, type RunEvent } from "../../src/replies/events.js";
import type { ReplyProject } from "../../src/replies/port.js";
import { numberSenders } from "../../src/replies/projects.js";
import {
  listenerFlagsUnused,
  listens,
  runSucceeded,
  startWarnings,
  withPollOnlyHint,
} from "../../src/replies/run-checks.js";
import type { RepliesState } from "../../src/replies/state-file.js";
import { DEFAULT_FIRST_WINDOW_MS, POLL_INTERVAL_MS, RepliesWorker } from "../../src/replies/worker.js";
import { createRepliesRunView } from "../../src/report/replies-run-view.js";
import { createRedactor, type Redactor } from "../../src/text/redact.js";
import type { RecordFile } from "../../src/webhooks/record-store.js";
import type { WebhookSecret } from "../../src/webhooks/types.js";
import { openRepliesStateDir } from "../adapters/replies-state-dir.js";
import { DEFAULT_REPLIES_HOST, DEFAULT_REPLIES_PORT } from "../flags/flag-defaults.js";
import type { KeyScopeFlags } from "../flags/key-scope-flag.js";
import { openSession, type Session, type SessionFlags, type SessionOptions } from "../gather/session.js";
import { Closers } from "../lifecycle/closers.js";
import { abortableSleeps, onStopSignal } from "../lifecycle/stop-signals.js";
import { failWith, type JsonFailure } from "../output/fail.js";
import type { Io } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";
import { eventIntake, startRepliesListener } from "../replies/event-listener.js";
import { type ReplyInputs, type ReplyInputsRefused, readReplyInputs } from "../replies/inputs.js";
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
  const inputs = gatherInputs(paths, flags, io);
  if (!inputs.ok) return failWith(inputs.diagnostics, inputs.sources, io, json);
  const closers = new Closers();
  try {
    const ready = await prepareRun(inputs, flags, io, deps, closers);
    if (!ready.ok) return failWith(ready.diagnostics, ready.sources, io, json);
    const summary = await ready.worker.run();
    return runSucceeded(summary, flags.once === true) ? success : failure;
  } finally {
    await closers.closeAll();
  }
}

/** What the files, the policies above them and the environment give a run, read before anything opens. */
interface RunInputs extends ReplyInputs {
  readonly secrets: readonly WebhookSecret[];
  readonly redact: Redactor;
}

type Refusal = ReplyInputsRefused;

function gatherInputs(paths: readonly string[], flags: RepliesRunFlags, io: Io): RunInputs | Refusal {
  const none = new Map<string, string>();
  const usage = listenerFlagsUnused(flags);
  if (usage.length > 0) return { ok: false, diagnostics: usage, sources: none };
  const inputs = readReplyInputs(paths, io);
  if (!inputs.ok) return inputs;
  const secrets = listens(flags) ? secretsFromEnv(flags.secretEnv, io) : { ok: true as const, secrets: [] };
  if (!secrets.ok) return { ok: false, diagnostics: withPollOnlyHint(secrets.diagnostics), sources: none };
  return {
    ...inputs,
    secrets: secrets.secrets,
    redact: createRedactor(secrets.secrets.map((s) => s.value)),
  };
}

/** What a run holds open once it may start: its record and state, its session, and the routes. */
interface Opened {
  readonly file: RecordFile;
  readonly state: RepliesState;
  readonly session: Session;
  readonly routing: RoutingResult;
  readonly controller: AbortController;
  readonly stoppable: Sleep;
}

/**
 * Opens the state directory and the session (each registered with `closers`), routes the reply
 * projects by their owners' keys and learns the API's clock; refuses when any of it fails, or when
 * the cross-organization rule refuses an answer (before the worker starts).
 */
async function openRun(
  inputs: RunInputs,
  flags: RepliesRunFlags,
  io: Io,
  deps: RepliesRunDeps,
  closers: Closers,
): Promise<({ ok: true } & Opened) | Refusal> {
  const none = new Map<string, string>();
  const dir = await openRepliesStateDir(io.cwd, flags.state);
  if (!dir.ok) return { ok: false, diagnostics: [dir.diagnostic], sources: none };
  const { file, state } = dir;
  closers.add(() => file.close());
  closers.add(() => state.close());
  // Ctrl-C and SIGTERM stop the run within a second, whatever is in flight (lifecycle/stop-signals.ts).
  const controller = new AbortController();
  const { stoppable, abandoned } = abortableSleeps(controller.signal);
  const opened = await openSession(flags, io, { sleep: abandoned, ...deps.session });
  if (!opened.ok) return { ok: false, diagnostics: opened.diagnostics, sources: none };
  const session = opened.session;
  closers.add(() => session.close());
  // Keys per organization: each reply project's reads and answers go with its own organization's
  // key; answers the cross-organization rule refuses stop the worker before it starts.
  const routing = await routeReplies(session.router, inputs.campaign.projects, flags);
  const refused = routing.ok
    ? routing.diagnostics.filter((d) => d.severity === "error")
    : routing.diagnostics;
  if (refused.length > 0) return { ok: false, diagnostics: refused, sources: inputs.sources };
  // The worker's clock is the API's (the window, the cursor, the pace of passes): learn it first.
  if (deps.now === undefined && session.sandbox === null && session.clockReading() === null) {
    const probe = await session.client.listOrganizations();
    if (!probe.ok) return { ok: false, diagnostics: [apiErrorDiagnostic(probe.error)], sources: none };
  }
  return { ok: true, file, state, session, routing, controller, stoppable };
}

/** Opens the run, then sets its worker up: the events recorded earlier first in line, the listener, the first lines. */
async function prepareRun(
  inputs: RunInputs,
  flags: RepliesRunFlags,
  io: Io,
  deps: RepliesRunDeps,
  closers: Closers,
): Promise<{ ok: true; worker: RepliesWorker } | Refusal> {
  const opened = await openRun(inputs, flags, io, deps, closers);
  if (!opened.ok) return opened;
  const { file, state, session, controller } = opened;
  const { redact } = inputs;
  const view = createRepliesRunView(
    { stdout: (t) => io.stdout(redact(t)), stderr: (t) => io.stderr(redact(t)) },
    flags.json === true,
  );
  closers.add(
    (deps.onInterrupt ?? onStopSignal)(() => {
      io.stderr(
        "\nInterrupt received: replies run stops now (an answer cut short in flight is settled by the next run).\n",
      );
      controller.abort();
    }),
  );
  const now = deps.now ?? (() => session.now().getTime());
  const projects = inputs.campaign.projects;
  const worker = new RepliesWorker({
    // The router: it routes each read and answer by the conversation's project (placeConversation).
    port: session.router,
    state,
    revocation: inputs.revocation,
    now,
    sleep: deps.sleep ?? opened.stoppable,
    signal: controller.signal,
    maxSends: deps.maxSends ?? WRITE_MAX_ATTEMPTS,
    backoffMs: deps.backoffMs ?? WRITE_FIRST_BACKOFF_MS,
    segmentPriceUsd: flags.segmentPrice ?? null,
    projects: inputs.projects,
    senders: numberSenders(projects),
    firstWindowMs: flags.since ?? DEFAULT_FIRST_WINDOW_MS,
    pollIntervalMs: POLL_INTERVAL_MS,
    until: flags.once === true ? "once" : "interrupted",
    onEvent: view,
    // A key that could not be used at the start: the cursor stays, and the key is checked again.
    unlisted: () => unreadReplyProjects(session.router, projects),
    ...(opened.routing.diagnostics.length === 0
      ? {}
      : {
          beforePass: keyRecheck({
            router: session.router,
            route: () => routeReplies(session.router, projects, flags),
            now,
          }),
        }),
  });
  const take = eventIntake(file, (job) => worker.enqueue(job), now);
  // Events recorded by an earlier run and not yet settled: first in line.
  take([...file.outbox.values()].map((item) => item.event));
  let listening: string | null = null;
  if (listens(flags)) {
    const host = flags.host ?? DEFAULT_REPLIES_HOST;
    const port = flags.port ?? DEFAULT_REPLIES_PORT;
    const started = await startRepliesListener({ ...inputs, file, take, view, now, io, host, port });
    if (!started.ok) return { ok: false, diagnostics: [started.diagnostic], sources: new Map() };
    const { listener } = started;
    closers.add(() => listener.close());
    listening = listener.url;
    deps.onListening?.(listener.url, () => listener.close());
  }
  announce(view, { flags, state, listening, projects: inputs.projects, routing: opened.routing, at: now() });
  return { ok: true, worker };
}

/** The run's first lines: `started`, then the routes' warnings and the start's own. */
function announce(
  view: (event: RunEvent) => void,
  run: {
    readonly flags: RepliesRunFlags;
    readonly state: RepliesState;
    readonly listening: string | null;
    readonly projects: readonly ReplyProject[];
    readonly routing: RoutingResult;
    readonly at: number;
  },
): void {
  const at = new Date(run.at).toISOString();
  const { flags, state } = run;
  view({
    type: "started",
    format_version: REPLIES_RUN_FORMAT_VERSION,
    at,
    state: flags.state,
    listening: run.listening,
    updated_since: state.cursor.updatedSince,
    answered_before: state.answered.size,
    projects: run.projects.map((p) => p.address),
  });
  const warnings = startWarnings({
    since: flags.since,
    cursor: state.cursor,
    torn: state.torn,
    cursorFile: join(flags.state, "cursor.json"),
    answeredFile: join(flags.state, "answered.jsonl"),
  });
  for (const diagnostic of [...run.routing.diagnostics, ...warnings])
    view({ type: "problem", at, diagnostic });
}
