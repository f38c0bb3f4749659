/**
 * The replies worker: one serial loop that settles inbounds from two intakes, so that no two
 * settle one conversation at once:
 *
 * - **events**: `message.replied` events the listener's core verified, deduplicated and recorded
 *   (`enqueue`); settled at once when the conversation's project is known (from an earlier pass, or
 *   the only project of the files sending from the event's `to` number), else left to the next pass;
 * - **polling**: a `GET /conversations` pass at most once a minute of the API's clock (the start of
 *   the last pass is on disk, so restarts keep the pace too), from `updated_since`, which advances
 *   to the newest `last_inbound_at` whose conversation was settled with every older one. Inbounds
 *   the events missed are settled here. Events that arrive during a pass are settled between two
 *   of its conversations, not after the pass.
 *
 * Clock, sleep, API and state are handed in; the loop never reads the wall clock. A stop (`signal`)
 * is answered at once, whatever is in flight: every wait and every API call ends on it
 * (abortable-port.ts), and what it cut short is left for the next run (an event stays in the
 * listener's record, a reply whose outcome is unknown is settled from the thread and its key).
 */
import { apiErrorDiagnostic } from "../api/index.js";
import type { Conversation, ThreadMessage } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { nameMapFrom, own } from "../text/names.js";
import { abortablePort } from "./abortable-port.js";
import { emptyTotals, type InboundOutcome, type RunEvent, type RunTotals } from "./events.js";
import { cursorAfterPass, markedAt, nextPassAt, passFloor, passOrder, settledMark } from "./poll-window.js";
import { PAGE_LIMIT, type ReplyProject, readThread } from "./port.js";
import { type InboundJob, type SettleContext, type Settled, settleInbound } from "./settle.js";
import type { PollCursor } from "./state-file.js";

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
  readonly firstWindowMs: number;
  readonly pollIntervalMs: number;
  /** `once`: the queued events, one pass (when due), then stop. `interrupted`: until `signal`. */
  readonly until: "once" | "interrupted";
  readonly onEvent: (event: RunEvent) => void;
}

export interface WorkerSummary {
  readonly reason: "once" | "interrupted" | "insufficient-balance";
  readonly totals: RunTotals;
  /** Inbounds whose outcome is still unknown at the end (tried again by the next run). */
  readonly pending: number;
  /** Passes that failed to read. */
  readonly failedPasses: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
/** When an inbound was received (ms); before any floor when the thread does not say (not judged). */
const receivedAt = (m: ThreadMessage): number => {
  const at = Date.parse(m.received_at ?? "");
  return Number.isNaN(at) ? Number.NEGATIVE_INFINITY : at;
};

export class RepliesWorker {
  private readonly queue: EventJob[] = [];
  private wake: (() => void) | null = null;
  private readonly byId: Map<string, ReplyProject>;
  private readonly byNumber = new Map<string, ReplyProject[]>();
  /** Conversation id -> project id, learned from passes (events do not carry the project). */
  private readonly conversationProject = new Map<string, string>();
  private readonly totals = emptyTotals();
  private readonly unknown = new Set<string>();
  /**
   * Inbounds this run judged for good, by message id, with when they were received (ms): a pass that
   * reads them again (the overlap) skips them instead of reporting them again. Pruned below the floor.
   */
  private readonly judged = new Map<string, number>();
  private failedPasses = 0;
  private cursor: PollCursor;
  private stopReason: WorkerSummary["reason"] | null = null;

  private readonly o: WorkerOptions;

  constructor(options: WorkerOptions) {
    const o: WorkerOptions = { ...options, port: abortablePort(options.port, options.signal) };
    this.o = o;
    this.byId = new Map(o.projects.map((p) => [p.id, p]));
    for (const p of o.projects)
      for (const n of p.numbers) this.byNumber.set(n, [...(this.byNumber.get(n) ?? []), p]);
    this.cursor = o.state.cursor;
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
      const due = this.nextPassAt();
      if (this.o.now() >= due) {
        await this.pass();
        passed = true;
        continue;
      }
      if (this.o.until === "once") {
        if (!passed)
          this.problem({
            severity: "info",
            code: "replies.pass-not-due",
            message: `No GET /conversations pass this run: the last one started at ${this.cursor.lastPassAt}, and passes are at most one a minute (next at ${iso(due)})`,
            hint: "run it again after that time; the queued events were settled",
          });
        this.stopReason = "once";
        break;
      }
      await this.idle(due - this.o.now());
    }
    this.emit({
      type: "stopped",
      at: iso(this.o.now()),
      reason: this.stopReason ?? "interrupted",
      totals: this.totals,
    });
    return {
      reason: this.stopReason ?? "interrupted",
      totals: this.totals,
      pending: this.unknown.size,
      failedPasses: this.failedPasses,
    };
  }

  /** When the next pass may start: a minute after the last one started (now, if the clock went back). */
  private nextPassAt(): number {
    return nextPassAt(this.cursor, this.o.now(), this.o.pollIntervalMs);
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
    this.totals.events++;
    const projectId = this.conversationProject.get(job.conversationId);
    let project = projectId === undefined ? undefined : this.byId.get(projectId);
    if (project === undefined && projectId === undefined && job.to !== null) {
      const candidates = this.byNumber.get(job.to) ?? [];
      if (candidates.length === 1) project = candidates[0];
    }
    if (project === undefined) {
      this.report(job, null, projectId === undefined ? "deferred" : "no-rules", null, {
        detail: projectId === undefined ? "its project is not known yet: the next pass settles it" : null,
      });
      job.done();
      return;
    }
    const thread = await readThread(this.o.port, job.conversationId, job.inboundId);
    // Stopped meanwhile: the event stays in the listener's record, first in line for the next run.
    if (this.o.signal.aborted && !thread.ok) return;
    if (!thread.ok) {
      this.report(job, project, "unreadable", null, { detail: thread.error.message });
      job.done();
      return;
    }
    const settled = await settleInbound(this.o, project, job, thread.value);
    this.count(job, project, settled);
    this.judgedFor(
      thread.value.find((m) => m.message_id === job.inboundId && m.direction === "inbound"),
      settled,
    );
    if (this.o.signal.aborted && settled.kind === "unknown") return;
    job.done();
  }

  /**
   * One `GET /conversations` pass, from the floor (poll-window.ts: the cursor less the overlap), its
   * conversations oldest first; those whose mark did not move since they were settled are skipped.
   */
  private async pass(): Promise<void> {
    const startedAt = this.o.now();
    const floor = passFloor(this.cursor, startedAt, this.o.firstWindowMs);
    const since = iso(floor);
    // On disk before the first request: a pass that a kill cut short still counts for the pace.
    this.saveCursor({ ...this.cursor, lastPassAt: iso(startedAt) });
    this.totals.passes++;
    const conversations = await this.listSince(since);
    if (conversations === "failed") return;
    // Stopped while listing: the pass ends here, reported as every pass is; the cursor stays.
    if (conversations === "stopped") {
      this.emitPass(startedAt, since, 0, 0, this.cursor.updatedSince ?? since);
      return;
    }
    let settledUpTo: string | null = null;
    let firstOpen: string | null = null;
    let unchanged = 0;
    const settled = nameMapFrom(Object.entries(this.cursor.settled));
    for (const c of passOrder(conversations)) {
      // Events that came in meanwhile go first: a long pass does not hold up a fresh inbound's
      // answer for more than one conversation. Still one loop: no two settle a conversation at once.
      await this.settleQueuedEvents();
      const last = c.last_inbound_at ?? since;
      // Ctrl-C or 402: the rest waits for the next run (the cursor stays before it).
      if (this.stopReason !== null || this.o.signal.aborted) {
        firstOpen ??= last;
        break;
      }
      this.conversationProject.set(c.conversation_id, c.project_id);
      const mark = settledMark(c);
      let done = own(settled, c.conversation_id) === mark;
      if (done) unchanged++;
      else done = await this.settleConversation(c, floor);
      if (done) settled[c.conversation_id] = mark;
      else firstOpen ??= last;
      if (done && firstOpen === null) settledUpTo = last;
    }
    for (const [id, mark] of Object.entries(settled)) if (!(markedAt(mark) >= floor)) delete settled[id];
    for (const [id, at] of this.judged) if (at < floor) this.judged.delete(id);
    const cursor = cursorAfterPass(this.cursor.updatedSince ?? since, settledUpTo, firstOpen) ?? since;
    this.saveCursor({ updatedSince: cursor, lastPassAt: iso(startedAt), settled });
    this.emitPass(startedAt, since, conversations.length, unchanged, cursor);
  }

  private emitPass(
    startedAt: number,
    since: string,
    conversations: number,
    unchanged: number,
    cursor: string,
  ) {
    this.emit({
      type: "pass",
      at: iso(this.o.now()),
      updated_since: since,
      conversations,
      unchanged,
      cursor,
      next_pass_at: iso(startedAt + this.o.pollIntervalMs),
    });
  }

  /**
   * Every conversation with an inbound since `since`; `failed` when a page could not be read (a
   * problem reported), `stopped` when the run was stopped meanwhile (not a failed pass).
   */
  private async listSince(since: string): Promise<Conversation[] | "failed" | "stopped"> {
    const conversations: Conversation[] = [];
    let page: string | null = null;
    do {
      const res = await this.o.port.listConversations({ updated_since: since, limit: PAGE_LIMIT }, page);
      if (!res.ok && this.o.signal.aborted) return "stopped";
      if (!res.ok) {
        this.failedPasses++;
        this.problem({ ...apiErrorDiagnostic(res.error), code: "replies.poll-failed" });
        return "failed";
      }
      conversations.push(...res.value.data);
      page = res.value.has_more ? res.value.next_cursor : null;
    } while (page !== null);
    return conversations;
  }

  /**
   * Settles every inbound of `c` received since `floor` (ms), oldest first, but those this run
   * already judged for good; true when none is left open. One in the record is `recorded`, never
   * judged again.
   */
  private async settleConversation(c: Conversation, floor: number): Promise<boolean> {
    const project = this.byId.get(c.project_id);
    const thread = await readThread(this.o.port, c.conversation_id, null);
    if (!thread.ok && this.o.signal.aborted) return false;
    if (!thread.ok) {
      this.problem({ ...apiErrorDiagnostic(thread.error), code: "replies.poll-failed" });
      return false;
    }
    const inbounds = thread.value
      .filter((m) => m.direction === "inbound" && receivedAt(m) >= floor && !this.judged.has(m.message_id))
      .reverse();
    let open = false;
    for (const m of inbounds) {
      const job: InboundJob = {
        conversationId: c.conversation_id,
        inboundId: m.message_id,
        via: "poll",
        eventOptOut: false,
        conversationOptedOut: c.opted_out,
      };
      if (project === undefined) {
        this.report(job, null, "no-rules", null, { projectId: c.project_id });
        continue;
      }
      const settled = await settleInbound(this.o, project, job, thread.value);
      this.count(job, project, settled);
      this.judgedFor(m, settled);
      if (settled.kind === "unknown" || settled.kind === "missing") open = true;
      if (this.stopReason !== null || this.o.signal.aborted) return false;
    }
    return !open;
  }

  /** Remembers an inbound judged for good (not `unknown`, `unreadable`, `missing`, `no-balance`). */
  private judgedFor(m: ThreadMessage | undefined, s: Settled): void {
    if (m === undefined) return;
    switch (s.kind) {
      case "unknown":
      case "unreadable":
      case "missing":
      case "no-balance":
        return;
      case "recorded":
      case "answered":
      case "refused":
      case "opt-out":
      case "unmatched":
      case "limit":
        this.judged.set(m.message_id, receivedAt(m));
        return;
    }
  }

  private count(job: InboundJob, project: ReplyProject, s: Settled): void {
    const key = job.inboundId;
    if (s.kind !== "unknown") this.unknown.delete(key);
    switch (s.kind) {
      case "answered":
        this.totals.answered++;
        this.totals.segments += s.line.segments;
        this.report(job, project, "answered", s.line.rule, {
          answerId: s.line.answer_message_id,
          segments: s.line.segments,
          detail:
            s.line.via === "thread"
              ? "found in the thread (sent before a restart or an unknown outcome)"
              : s.replayed
                ? "replayed"
                : null,
        });
        return;
      case "recorded":
        this.totals.recorded++;
        this.report(job, project, "recorded", s.line.rule, { answerId: s.line.answer_message_id });
        return;
      case "refused":
        this.totals.refused++;
        this.problem({ ...apiErrorDiagnostic(s.error), code: "replies.answer-refused", severity: "warning" });
        this.report(job, project, "refused", s.line.rule, { detail: s.line.code });
        return;
      case "no-balance":
        this.stopReason = "insufficient-balance";
        this.problem({
          ...apiErrorDiagnostic(s.error),
          code: "replies.insufficient-balance",
          hint: "add funds to the organization that owns the project, then start the worker again: nothing was charged, and every inbound not yet answered is answered then",
        });
        this.report(job, project, "no-balance", null, {});
        return;
      case "unknown":
        this.totals.unknown++;
        this.unknown.add(key);
        this.report(job, project, "unknown", s.rule, { detail: s.note });
        return;
      case "unreadable":
        this.report(job, project, "unreadable", null, { detail: s.error.message });
        return;
      case "opt-out":
        this.totals.opt_out++;
        this.report(job, project, "opt-out", null, { detail: s.reason });
        return;
      case "unmatched":
        this.totals.unmatched++;
        this.report(job, project, "unmatched", null, { detail: s.reason ?? null });
        return;
      case "limit":
        this.totals.limit++;
        this.report(job, project, "limit", s.match.rule.name, {
          detail:
            s.limit === "rule"
              ? `rule answered ${s.count} times in this conversation`
              : `${s.count} answers in 24 hours`,
        });
        return;
      case "missing":
        this.report(job, project, "missing", null, { detail: "not in the thread yet" });
        return;
    }
  }

  private report(
    job: InboundJob,
    project: ReplyProject | null,
    outcome: InboundOutcome,
    rule: string | null,
    extra: { answerId?: string | null; segments?: number; detail?: string | null; projectId?: string },
  ): void {
    if (outcome === "no-rules") this.totals.no_rules++;
    this.emit({
      type: "inbound",
      at: iso(this.o.now()),
      via: job.via,
      conversation_id: job.conversationId,
      message_id: job.inboundId,
      project_id: project?.id ?? extra.projectId ?? null,
      address: project?.address ?? null,
      outcome,
      rule,
      answer_message_id: extra.answerId ?? null,
      segments: extra.segments ?? 0,
      detail: extra.detail ?? null,
    });
  }

  private problem(diagnostic: Diagnostic): void {
    this.emit({ type: "problem", at: iso(this.o.now()), diagnostic });
  }

  private saveCursor(cursor: PollCursor): void {
    this.cursor = cursor;
    this.o.state.saveCursor(cursor);
  }

  private emit(event: RunEvent): void {
    this.o.onEvent(event);
  }
}
