/**
 * `campaignctl webhooks listen`: a local receiver for the API's signed deliveries. Each delivery is
 * verified (signature over the raw bytes against every `--secret-env` secret, timestamp within 5
 * minutes of this machine's clock, dedupe by event id and by the signed body), answered at once,
 * and then, from a queue, remembered in the dedupe record under `--state`, printed (text, or JSON
 * lines with `--json`) and forwarded to `--forward-to`. Serves until Ctrl-C (SIGINT) or SIGTERM,
 * then stops taking deliveries, finishes the queued work and prints the totals.
 */
import { join, resolve } from "node:path";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { checkForwardUrl, createForwarder, type Forwarder } from "../../src/webhooks/forward.js";
import { type ListenerCounts, type ListenerNote, Receiver } from "../../src/webhooks/receiver.js";
import { startListenerServer } from "../../src/webhooks/server.js";
import { failWith } from "../fail.js";
import type { Io } from "../io.js";
import { type Outcome, success } from "../outcome.js";
import { DEDUPE_FILE_NAME, type DedupeFile, openDedupeFile } from "./webhooks-dedupe-file.js";
import { eventKinds, secretsFromEnv } from "./webhooks-flags.js";
import {
  jsonLine,
  LISTEN_FORMAT_VERSION,
  listeningJson,
  listeningText,
  noteJson,
  noteText,
  type ProblemNote,
  stoppedJson,
  stoppedText,
} from "./webhooks-output.js";

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
  /** `--state DIR`, relative to the working directory. */
  readonly state: string;
}

/** Tuning the tests use (a small record, a small queue); the command uses the defaults. */
export interface ListenTuning {
  readonly dedupeCapacity?: number;
  readonly queueLimit?: number;
  /** Real milliseconds the forward handler has to answer (default: the contract's 10 s). */
  readonly forwardTimeoutMs?: number;
}

/** A listener that is serving. */
export interface RunningListener {
  /** `http://host:port` with the bound port. */
  readonly url: string;
  readonly counts: Readonly<ListenerCounts>;
  /** Resolves once every delivery answered so far has been remembered, printed and forwarded. */
  drained(): Promise<void>;
  /** Stops taking deliveries, finishes the queued work, closes the record and prints the totals. */
  stop(): Promise<void>;
}

/**
 * Starts serving, or prints why it cannot (and returns the failure). The clock that timestamps are
 * judged against, and that output shows, is `io.clock` (tests pass a virtual one).
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
  const secrets = secretsFromEnv(flags.secretEnv, io);
  const kinds = eventKinds(flags.events);
  const forwardUrl = flags.forwardTo === undefined ? undefined : checkForwardUrl(flags.forwardTo);
  const problems = [
    ...(secrets.ok ? [] : secrets.diagnostics),
    ...(kinds.ok ? [] : kinds.diagnostics),
    ...(forwardUrl === undefined || forwardUrl.ok ? [] : [forwardUrl.diagnostic]),
  ];
  if (!secrets.ok || !kinds.ok || forwardUrl?.ok === false) return fail(problems);

  const print = (note: ListenerNote | ProblemNote): void =>
    io.stdout(flags.json === true ? jsonLine(noteJson(note)) : noteText(note));
  const opened = await openDedupeFile(
    resolve(io.cwd, flags.state),
    flags.state,
    (diagnostic) => print({ type: "problem", at: io.clock(), diagnostic }),
    tuning.dedupeCapacity,
  );
  if (!opened.ok) return fail([opened.diagnostic]);
  const file: DedupeFile = opened.file;
  const forwarder: Forwarder | null =
    forwardUrl === undefined ? null : createForwarder(forwardUrl.url, { timeoutMs: tuning.forwardTimeoutMs });
  const receiver = new Receiver({
    secrets: secrets.secrets,
    clock: io.clock,
    events: kinds.kinds,
    dedupe: file.record,
    remember: (entries) => file.append(entries),
    forwarder,
    note: print,
    onBug: (error) =>
      io.stderr(
        `campaignctl webhooks: internal error: ${error instanceof Error ? error.message : String(error)}\n`,
      ),
    queueLimit: tuning.queueLimit,
  });
  const started = await startListenerServer(receiver, flags.host, flags.port);
  if (!started.ok) {
    await file.close();
    await forwarder?.close();
    return fail([
      {
        severity: "error",
        code: "webhooks.listen-failed",
        message: `Cannot listen on ${flags.host}:${flags.port}: ${started.failure.message}`,
        hint:
          started.failure.code === "EADDRINUSE"
            ? "Another process uses that port: pick another with --port (0: any free port)"
            : "Check --host (an address of this machine) and --port",
      },
    ]);
  }
  const { server } = started;
  const info = {
    url: server.url,
    secrets: secrets.secrets.map((s) => s.name),
    events: kinds.kinds === null ? null : [...kinds.kinds],
    forwardTo: forwarder?.url ?? null,
    stateFile: join(flags.state, DEDUPE_FILE_NAME),
    remembered: file.record.size,
  };
  io.stdout(flags.json === true ? jsonLine(listeningJson(info, io.clock())) : listeningText(info));
  let stopping: Promise<void> | undefined;
  return {
    ok: true,
    listener: {
      url: server.url,
      counts: receiver.counts,
      drained: () => receiver.drained(),
      stop() {
        stopping ??= (async () => {
          await server.close();
          await receiver.drained();
          await forwarder?.close();
          await file.close();
          io.stdout(
            flags.json === true
              ? jsonLine(stoppedJson(receiver.counts, io.clock()))
              : stoppedText(receiver.counts),
          );
        })();
        return stopping;
      },
    },
  };
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
