/**
 * The replies worker: one serial loop that settles inbounds from two intakes, so that no two
 * settle one conversation at once:
 *
 * - **events**: `message.replied` events the listener's core verified, deduplicated and recorded
 *   (`enqueue`); settled at once when the conversation's project is known (from an earlier pass, or
 *   the only project of the files sending from the event's `to` number), else left to the next pass;
 * - **polling**: a `GET /conversations` pass at most once a minute of the API's clock
 *   (worker-poll.ts). Inbounds the events missed are settled there. Events that arrive during a pass
 *   are settled between two of its conversations, not after the pass.
 *
 * Which project an inbound belongs to is worker-projects.ts's; what the run reports (its events,
 * totals and memory of inbounds judged) worker-tally.ts's; settling one inbound (judging it and
 * answering it exactly once) settle.ts's. This file is the loop and the event intake.
 *
 * Clock, sleep, API and state are handed in; the loop never reads the wall clock. A stop (`signal`)
 * is answered at once, whatever is in flight: every wait and every API call ends on it
 * (abortable-port.ts), and what it cut short is left for the next run (an event stays in the
 * listener's record, a reply whose outcome is unknown is settled from the thread and its key).
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { abortablePort } from "./abortable-port.js";
import type { RunEvent, RunStopReason, RunTotals } from "./events.js";
import { type ReplyProject, readThread } from "./port.js";
import type { NumberSender } from "./projects.js";
import { type InboundJob, type SettleContext, settleInbound } from "./settle.js";
import { Poller } from "./worker-poll.js";
import { ConversationProjects } from "./worker-projects.js";
import { iso, WorkerTally } from "./worker-tally.js";

/** The least time between two `GET /conversations` passes (the contract's "at most once a minute"). */
export const POLL_INTERVAL_MS = 60_000;
/** How far back the first pass reads when there is no cursor yet. */
export const DEFAULT_FIRST_WINDOW_MS = 86_400_000;

/** An inbound from an event, with the number it was sent to and its acknowledgement in the record. */
export interface EventJob extends InboundJob {
  readonly to: string | null;
  /** Called once the inbound is settled or left to polling (marks the event handled in the record). */
  readonly done: () => void;
}

export interface WorkerOptions extends SettleContext {
  readonly projects: readonly ReplyProject[];
  /**
   * Every project of the files with its E.164 numbers, with reply rules or not (default: `projects`):
   * an event is placed by its `to` number only when one of them sends from it.
   */
  readonly senders?: readonly NumberSender[];
  readonly firstWindowMs: number;
  readonly pollIntervalMs: number;
  /** `once`: the queued events, one pass (when due), then stop. `interrupted`: until `signal`. */
  readonly until: "once" | "interrupted";
  /**
   * The reply projects (addresses) whose conversations a listing cannot see now: their
   * organization's key could not be used. While any, a pass settles what it lists and keeps the
   * cursor where it was (`replies.cursor-held`), so that no pass moves it past inbounds it never saw.
   */
  readonly unlisted?: () => readonly string[];
  /** Before each pass: the keys that failed checked again (key-recheck.ts); what it says is reported. */
  readonly beforePass?: () => Promise<readonly Diagnostic[]>;
  readonly onEvent: (event: RunEvent) => void;
}

export interface WorkerSummary {
  readonly reason: RunStopReason;
  readonly totals: RunTotals;
  /** Inbounds whose outcome is still unknown at the end (tried again by the next run). */
  readonly pending: number;
  /** Passes that failed to read. */
  readonly failedPasses: number;
}

export class RepliesWorker {
  private readonly queue: EventJob[] = [];
  private wake: (() => void) | null = null;
  private readonly projects: ConversationProjects;
  private readonly tally: WorkerTally;
  private readonly poller: Poller;
  private stopReason: WorkerSummary["reason"] | null = null;

  private readonly o: WorkerOptions;

  constructor(options: WorkerOptions) {
    const o: WorkerOptions = { ...options, port: abortablePort(options.port, options.signal) };
    this.o = o;
    this.projects = new ConversationProjects(o.projects, o.senders);
    this.tally = new WorkerTally({
      now: o.now,
      onEvent: o.onEvent,
      onStop: (reason) => {
        this.stopReason = reason;
      },
    });
    this.poller = new Poller({
      settle: o,
      firstWindowMs: o.firstWindowMs,
      pollIntervalMs: o.pollIntervalMs,
      projects: this.projects,
      tally: this.tally,
      between: () => this.settleQueuedEvents(),
      stopped: () => this.stopReason !== null || o.signal.aborted,
      ...(o.unlisted === undefined ? {} : { unlisted: o.unlisted }),
      ...(o.beforePass === undefined ? {} : { beforePass: o.beforePass }),
    });
  }

  /** Takes an event's inbound (from the listener, after it is on disk). */
  enqueue(job: EventJob): void {
    this.queue.push(job);
    this.wake?.();
  }

  async run(): Promise<WorkerSummary> {
    let passed = false;
    while (this.stopReason === null) {
      // Ctrl-C: events still queued stay in the listener's record, first in line for the next run.
      if (this.o.signal.aborted) {
        this.stopReason = "interrupted";
        break;
      }
      const job = this.queue.shift();
      if (job !== undefined) {
        await this.settleEvent(job);
        continue;
      }
      const due = this.poller.nextPassAt();
      if (this.o.now() >= due) {
        await this.poller.pass();
        passed = true;
        continue;
      }
      if (this.o.until === "once") {
        if (!passed)
          this.tally.problem({
            severity: "info",
            code: "replies.pass-not-due",
            message: `No GET /conversations pass this run: the last one started at ${this.poller.lastPassAt}, and passes are at most one a minute (next at ${iso(due)})`,
            hint: "run it again after that time; the queued events were settled",
          });
        this.stopReason = "once";
        break;
      }
      await this.idle(due - this.o.now());
    }
    const totals = this.tally.totals;
    this.tally.emit({
      type: "stopped",
      at: iso(this.o.now()),
      reason: this.stopReason ?? "interrupted",
      totals,
    });
    return {
      reason: this.stopReason ?? "interrupted",
      totals,
      pending: this.tally.pending,
      failedPasses: this.poller.failedPasses,
    };
  }

  private async idle(ms: number): Promise<void> {
    let onAbort = (): void => {};
    const woken = new Promise<void>((resolve) => {
      this.wake = resolve;
      onAbort = () => resolve();
      this.o.signal.addEventListener("abort", onAbort, { once: true });
    });
    await Promise.race([this.o.sleep(Math.max(1, ms)), woken]);
    this.o.signal.removeEventListener("abort", onAbort);
    this.wake = null;
  }

  /** Settles the events queued so far, in order, until the run stops (the rest stay queued). */
  private async settleQueuedEvents(): Promise<void> {
    while (this.stopReason === null && !this.o.signal.aborted) {
      const job = this.queue.shift();
      if (job === undefined) return;
      await this.settleEvent(job);
    }
  }

  private async settleEvent(job: EventJob): Promise<void> {
    this.tally.totals.events++;
    const { project, learned } = this.projects.ofEvent(job.conversationId, job.to);
    if (project === undefined) {
      this.tally.report(job, null, learned === undefined ? "deferred" : "no-rules", null, {
        detail: learned === undefined ? "its project is not known yet: the next pass settles it" : null,
      });
      job.done();
      return;
    }
    const thread = await readThread(this.o.port, job.conversationId, job.inboundId);
    // Stopped meanwhile: the event stays in the listener's record, first in line for the next run.
    if (this.o.signal.aborted && !thread.ok) return;
    if (!thread.ok) {
      this.tally.report(job, project, "unreadable", null, { detail: thread.error.message });
      job.done();
      return;
    }
    const settled = await settleInbound(this.o, project, job, thread.value);
    const inbound = thread.value.find((m) => m.message_id === job.inboundId && m.direction === "inbound");
    this.tally.settled(job, project, settled, inbound);
    if (this.o.signal.aborted && settled.kind === "unknown") return;
    job.done();
  }
}
