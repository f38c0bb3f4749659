/**
 * The event side of `replies run`: `message.replied` events from the listener's core (src/webhooks:
 * the same verification, dedupe and durable record as `webhooks listen`) handed to the worker, each
 * marked handled in the record once the worker has settled it (or left it to polling).
 */
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { RunEvent } from "../../src/replies/events.js";
import { inboundOfEvent } from "../../src/replies/intake.js";
import { listenFailed } from "../../src/replies/run-checks.js";
import type { EventJob } from "../../src/replies/worker.js";
import type { Redactor } from "../../src/text/redact.js";
import { Receiver } from "../../src/webhooks/receiver.js";
import type { RecordedEvent } from "../../src/webhooks/record.js";
import type { RecordFile } from "../../src/webhooks/record-store.js";
import { startListenerServer } from "../../src/webhooks/server.js";
import type { WebhookSecret } from "../../src/webhooks/types.js";
import type { Io } from "../output/io.js";

/**
 * Takes recorded events into the worker's queue (`enqueue`), each once: an event that is not an
 * inbound the worker answers is marked handled at once.
 */
export function eventIntake(
  file: RecordFile,
  enqueue: (job: EventJob) => void,
  now: () => number,
): (events: readonly RecordedEvent[]) => void {
  return (events) => {
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
      else enqueue({ ...job, done: handled });
    }
  };
}

export interface RepliesListener {
  readonly url: string;
  /** Stops taking events and waits for those in flight to be recorded. */
  close(): Promise<void>;
}

/** Serves `message.replied` deliveries on `host:port`, or says why it cannot. */
export async function startRepliesListener(options: {
  readonly secrets: readonly WebhookSecret[];
  readonly file: RecordFile;
  readonly take: (events: readonly RecordedEvent[]) => void;
  readonly view: (event: RunEvent) => void;
  readonly now: () => number;
  readonly io: Io;
  readonly redact: Redactor;
  readonly host: string;
  readonly port: number;
}): Promise<{ ok: true; listener: RepliesListener } | { ok: false; diagnostic: Diagnostic }> {
  const { io, view, now } = options;
  const problem = (diagnostic: Diagnostic) =>
    view({ type: "problem", at: new Date(now()).toISOString(), diagnostic });
  const receiver = new Receiver({
    secrets: options.secrets,
    clock: io.clock,
    events: new Set(["message.replied"]),
    store: options.file,
    outbox: { add: options.take },
    note: (note) => {
      if (note.type === "rejected" && note.rejection.diagnostic.severity !== "info")
        problem(note.rejection.diagnostic);
      if (note.type === "problem") problem(note.diagnostic);
    },
    onBug: (error) =>
      io.stderr(
        options.redact(
          `campaignctl replies: internal error: ${error instanceof Error ? error.message : String(error)}\n`,
        ),
      ),
  });
  const started = await startListenerServer(receiver, options.host, options.port);
  if (!started.ok)
    return { ok: false, diagnostic: listenFailed(options.host, options.port, started.failure.message) };
  const { server } = started;
  return {
    ok: true,
    listener: {
      url: server.url,
      close: async () => {
        await server.close();
        await receiver.drained();
      },
    },
  };
}
