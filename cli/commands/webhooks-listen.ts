/**
 * `campaignctl webhooks listen`: a local receiver for the API's signed deliveries. Each delivery is
 * verified (signature over the raw bytes against every `--secret-env` secret, timestamp within 5
 * minutes of this machine's clock, dedupe by event id and by the signed body), written to the
 * record under `--state` and flushed, printed (text, or JSON lines with `--json`), and only then
 * answered 2xx. With `--forward-to`, it also enters the outbox: forwarded until the handler answers
 * 2xx, across restarts, or moved to the dead-letter file past `--forward-max-attempts` or
 * `--forward-max-age`. Serves until Ctrl-C (SIGINT) or SIGTERM, then stops taking deliveries,
 * finishes what is in flight and prints the totals.
 */
import { join, resolve } from "node:path";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { type ListenView, listenView } from "../../src/report/webhooks-listen-view.js";
import { createRedactor, MASK, type Redactor } from "../../src/text/redact.js";
import { checkForwardUrl, createForwarder, type Forwarder } from "../../src/webhooks/forward.js";
import { ForwardLoop, type Sleep } from "../../src/webhooks/forward-loop.js";
import {
  forwardLimitAlone,
  forwardLimits,
  listenerBindFailed,
  recoveryNotes,
} from "../../src/webhooks/listen-checks.js";
import type { DEFAULT_FORWARD_LIMITS, ForwardLimits } from "../../src/webhooks/outbox.js";
import { type ListenerCounts, Receiver } from "../../src/webhooks/receiver.js";
import { DEAD_LETTER_FILE_NAME, DEDUPE_FILE_NAME, type RecordFile } from "../../src/webhooks/record-store.js";
import { startListenerServer } from "../../src/webhooks/server.js";
import type { WebhookSecret } from "../../src/webhooks/types.js";
import { openRecordFile } from "../adapters/record-file.js";
import { failWith } from "../output/fail.js";
import type { Io } from "../output/io.js";
import { type Outcome, success } from "../output/outcome.js";
import { eventKinds, secretsFromEnv } from "./webhooks-flags.js";

/** The format_version of the `listening` line (the first line of a `--json` run). */
export const LISTEN_FORMAT_VERSION = 1;

/** The flags of `webhooks listen`, as commander parses them. */
export interface WebhooksListenFlags {
  readonly port: number;
  readonly host: string;
  /** `--secret-env NAME`, repeatable; none: CAMPAIGNCTL_WEBHOOK_SECRET. */
  readonly secretEnv?: readonly string[];
  /** `--events a,b`, repeatable; none: every kind. */
  readonly events?: readonly string[];
  readonly json?: boolean;
  readonly forwardTo?: string;
  /** `--forward-max-attempts N` (default {@link DEFAULT_FORWARD_LIMITS}). */
  readonly forwardMaxAttempts?: number;
  /** `--forward-max-age DURATION` in ms (default {@link DEFAULT_FORWARD_LIMITS}). */
  readonly forwardMaxAge?: number;
  /** `--state DIR`, relative to the working directory. */
  readonly state: string;
}

/** Tuning the tests use (a small record, a small queue, virtual sleep); the command uses the defaults. */
export interface ListenTuning {
  readonly dedupeCapacity?: number;
  readonly queueLimit?: number;
  /** Real milliseconds the forward handler has to answer (default: the contract's 10 s). */
  readonly forwardTimeoutMs?: number;
  /** The outbox's sleep, on the clock of `io.clock` (default: real timers). */
  readonly sleep?: Sleep;
  /** Backoff of the outbox (default 1 s doubling to 5 minutes). */
  readonly forwardDelays?: Pick<ForwardLimits, "baseDelayMs" | "maxDelayMs">;
}

/** A listener that is serving. */
export interface RunningListener {
  /** `http://host:port` with the bound port. */
  readonly url: string;
  readonly counts: Readonly<ListenerCounts>;
  /** Resolves once every delivery answered so far is on disk and printed. */
  drained(): Promise<void>;
  /** Resolves once no forward is in flight and none is due (the outbox waits for its next attempt, or is empty). */
  forwardIdle(): Promise<void>;
  /** Events in the outbox. */
  outboxSize(): number;
  /** Stops taking deliveries, finishes what is in flight, closes the record and prints the totals. */
  stop(): Promise<void>;
}

/** Real timers: `ms` or until `signal` aborts. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise((done) => {
    if (signal.aborted) return done();
    const timer = setTimeout(done, Math.min(ms, 2_147_483_647));
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        done();
      },
      { once: true },
    );
  });

/**
 * Starts serving, or prints why it cannot (and returns the failure). The clock that timestamps are
 * judged against, that output shows and that the outbox schedules by, is `io.clock` (tests pass a
 * virtual one, with a virtual `tuning.sleep`).
 */
export async function startWebhooksListener(
  flags: WebhooksListenFlags,
  io: Io,
  tuning: ListenTuning = {},
): Promise<{ ok: true; listener: RunningListener } | { ok: false; outcome: Outcome }> {
  const json = { json: flags.json === true, formatVersion: LISTEN_FORMAT_VERSION };
  const fail = (diagnostics: readonly Diagnostic[]) => ({
    ok: false as const,
    outcome: failWith(diagnostics, new Map(), io, json),
  });
  const inputs = listenInputs(flags, io);
  if (!inputs.ok) return fail(inputs.diagnostics);
  // Whatever a delivery or a handler sends back, no trace of a signing secret is printed.
  const redact = listenerRedactor(io, inputs.secrets);
  const view = listenView(flags.json === true, (text) => io.stdout(redact(text)));
  const opened = await openRecordFile(resolve(io.cwd, flags.state), flags.state, tuning.dedupeCapacity);
  if (!opened.ok) return fail([opened.diagnostic]);
  const parts = wireListener(flags, io, tuning, inputs, { file: opened.file, view, redact });
  const started = await startListenerServer(parts.receiver, flags.host, flags.port);
  if (!started.ok) {
    await parts.file.close();
    await parts.forwarder?.close();
    return fail([listenerBindFailed(flags.host, flags.port, started.failure)]);
  }
  await announce(flags, io, inputs, parts, started.server.url);
  parts.loop?.start();
  return { ok: true, listener: runningListener(started.server, parts, io) };
}

/** What the flags and the environment give the listener: its secrets, the kinds it takes, where it forwards. */
interface ListenInputs {
  readonly ok: true;
  readonly secrets: readonly WebhookSecret[];
  readonly kinds: ReadonlySet<string> | null;
  readonly forwardUrl: string | null;
}

function listenInputs(
  flags: WebhooksListenFlags,
  io: Io,
): ListenInputs | { ok: false; diagnostics: readonly Diagnostic[] } {
  const secrets = secretsFromEnv(flags.secretEnv, io);
  const kinds = eventKinds(flags.events);
  const forwardUrl = flags.forwardTo === undefined ? undefined : checkForwardUrl(flags.forwardTo);
  const alone = forwardLimitAlone(flags);
  if (!secrets.ok || !kinds.ok || forwardUrl?.ok === false || alone !== null)
    return {
      ok: false,
      diagnostics: [
        ...(secrets.ok ? [] : secrets.diagnostics),
        ...(kinds.ok ? [] : kinds.diagnostics),
        ...(forwardUrl === undefined || forwardUrl.ok ? [] : [forwardUrl.diagnostic]),
        ...(alone === null ? [] : [alone]),
      ],
    };
  return { ok: true, secrets: secrets.secrets, kinds: kinds.kinds, forwardUrl: forwardUrl?.url ?? null };
}

/** The listener's parts around its open record: the receiver, and with `--forward-to` the forwarder and its loop. */
interface ListenerParts {
  readonly file: RecordFile;
  readonly view: ListenView;
  readonly receiver: Receiver;
  readonly forwarder: Forwarder | null;
  readonly loop: ForwardLoop | null;
  readonly deadLetterFile: string;
}

function wireListener(
  flags: WebhooksListenFlags,
  io: Io,
  tuning: ListenTuning,
  inputs: ListenInputs,
  out: { readonly file: RecordFile; readonly view: ListenView; readonly redact: Redactor },
): ListenerParts {
  const { file, view, redact } = out;
  const forwarder =
    inputs.forwardUrl === null
      ? null
      : createForwarder(inputs.forwardUrl, { timeoutMs: tuning.forwardTimeoutMs, clock: io.clock });
  const onBug = (error: unknown): void =>
    io.stderr(
      redact(
        `campaignctl webhooks: internal error: ${error instanceof Error ? error.message : String(error)}\n`,
      ),
    );
  const deadLetterFile = join(flags.state, DEAD_LETTER_FILE_NAME);
  let loop: ForwardLoop | null = null;
  const receiver = new Receiver({
    secrets: inputs.secrets,
    clock: io.clock,
    events: inputs.kinds,
    store: file,
    outbox: forwarder === null ? null : { add: (events) => loop?.add(events) },
    note: (note) => view.note(note),
    notes: (notes) => view.notes(notes),
    printed: io.stdoutFlushed,
    onBug,
    queueLimit: tuning.queueLimit,
  });
  if (forwarder !== null)
    loop = new ForwardLoop({
      forwarder,
      store: file,
      limits: forwardLimits(flags, tuning.forwardDelays),
      clock: io.clock,
      sleep: tuning.sleep ?? realSleep,
      note: (note) => view.note(note),
      counts: receiver.counts,
      deadLetterFile,
      onBug,
    });
  return { file, view, receiver, forwarder, loop, deadLetterFile };
}

/**
 * The first line, then the notes about the record reopened. Events the previous run flushed but did
 * not live to print are printed now, once, after the first line, in one write right before their
 * printed marker. Not in the first line's write: a supervisor that reacts to the first line (and a
 * pipe's reader is woken by it, often before this process runs on) should find them not yet
 * printed, so that a kill then repeats nothing. The marker waits until those lines were handed to
 * the OS (`io.stdoutFlushed`), and the deliveries taken on meanwhile wait to be printed after it.
 */
async function announce(
  flags: WebhooksListenFlags,
  io: Io,
  inputs: ListenInputs,
  parts: ListenerParts,
  url: string,
): Promise<void> {
  const { file, view, receiver } = parts;
  const { recovery } = file;
  const shown = join(flags.state, DEDUPE_FILE_NAME);
  const at = io.clock();
  const startNotes = recoveryNotes(recovery, shown, inputs.secrets, at);
  receiver.counts.accepted += recovery.unprinted.length;
  view.listening(
    {
      url,
      secrets: inputs.secrets.map((s) => s.name),
      events: inputs.kinds === null ? null : [...inputs.kinds],
      forwardTo: parts.forwarder?.url ?? null,
      stateFile: shown,
      remembered: file.record.size,
      outbox: file.outbox.size,
      deadLetterFile: parts.deadLetterFile,
      deadLetters: recovery.deadLetters,
    },
    at,
  );
  view.notes(startNotes);
  const lastUnprinted = recovery.unprinted.at(-1);
  if (lastUnprinted === undefined) return;
  const marked = (io.stdoutFlushed?.() ?? Promise.resolve()).then(() =>
    file.mark([{ t: "printed", event_id: lastUnprinted.entry.event_id }]),
  );
  receiver.printAfter(marked);
  await marked;
}

function runningListener(
  server: { readonly url: string; close(): Promise<void> },
  parts: ListenerParts,
  io: Io,
): RunningListener {
  const { file, view, receiver, loop, forwarder } = parts;
  let stopping: Promise<void> | undefined;
  return {
    url: server.url,
    counts: receiver.counts,
    drained: () => receiver.drained(),
    forwardIdle: () => loop?.idle() ?? Promise.resolve(),
    outboxSize: () => file.outbox.size,
    stop() {
      stopping ??= (async () => {
        await server.close();
        await receiver.drained();
        await loop?.stop();
        await forwarder?.close();
        await file.close();
        view.stopped(receiver.counts, file.outbox.size, io.clock());
      })();
      return stopping;
    },
  };
}

/**
 * What the listener passes its output through before `io` prints it, so that each line is redacted
 * once (issue 36: twice was a tenth of the listener's time). The CLI's io already masks the signing
 * secrets in everything it prints (cli/output/output-redaction.ts reads the same `--secret-env` variables):
 * when its redactor masks each secret whole, nothing more; otherwise (an io without a redactor, as a
 * test or a bench may hand in) the listener's own redactor.
 */
export function listenerRedactor(io: Io, secrets: readonly WebhookSecret[]): Redactor {
  const { redact } = io;
  if (redact !== undefined && secrets.every((s) => redact(s.value) === MASK)) return (text) => text;
  return createRedactor(secrets.map((s) => s.value));
}

/** Serves until `stop` resolves (Ctrl-C in the CLI; tests pass their own). */
export async function runWebhooksListen(
  flags: WebhooksListenFlags,
  io: Io,
  stop: Promise<void>,
): Promise<Outcome> {
  const started = await startWebhooksListener(flags, io);
  if (!started.ok) return started.outcome;
  await stop;
  await started.listener.stop();
  return success;
}
