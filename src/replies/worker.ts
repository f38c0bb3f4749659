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
 * Clock, sleep, API and state are handed in; the loop never reads the wall clock.
 */
import { apiErrorDiagnostic } from "../api/index.js";
import type { Conversation } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { nameMapFrom, own } from "../text/names.js";
import { emptyTotals, type InboundOutcome, type RunEvent, type RunTotals } from "./events.js";
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

export class RepliesWorker {
  private readonly queue: EventJob[] = [];
  private wake: (() => void) | null = null;
  private readonly byId: Map<string, ReplyProject>;
  private readonly byNumber = new Map<string, ReplyProject[]>();
  /** Conversation id -> project id, learned from passes (events do not carry the project). */
  private readonly conversationProject = new Map<string, string>();
  private readonly totals = emptyTotals();
  private readonly unknown = new Set<string>();
  private failedPasses = 0;
  private cursor: PollCursor;
  private stopReason: WorkerSummary["reason"] | null = null;

  constructor(private readonly o: WorkerOptions) {
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

  /** When the next pass may start: a minute after the last one started. */
  private nextPassAt(): number {
    const last =
      this.cursor.lastPassAt === null ? Number.NEGATIVE_INFINITY : Date.parse(this.cursor.lastPassAt);
    return last + this.o.pollIntervalMs;
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
    if (!thread.ok) {
      this.report(job, project, "unreadable", null, { detail: thread.error.message });
      job.done();
      return;
    }
    const settled = await settleInbound(this.o, project, job, thread.value);
    this.count(job, project, settled);
    job.done();
  }

  /** One `GET /conversations` pass. */
  private async pass(): Promise<void> {
    const startedAt = this.o.now();
    const since = this.cursor.updatedSince ?? iso(startedAt - this.o.firstWindowMs);
    // On disk before the first request: a pass that a kill cut short still counts for the pace.
    this.saveCursor({ ...this.cursor, lastPassAt: iso(startedAt) });
    this.totals.passes++;
    const conversations: Conversation[] = [];
    let page: string | null = null;
    do {
      const res = await this.o.port.listConversations({ updated_since: since, limit: PAGE_LIMIT }, page);
      if (!res.ok) {
        this.failedPasses++;
        this.problem({ ...apiErrorDiagnostic(res.error), code: "replies.poll-failed" });
        return;
      }
      conversations.push(...res.value.data);
      page = res.value.has_more ? res.value.next_cursor : null;
    } while (page !== null);
    conversations.sort(
      (a, b) =>
        (a.last_inbound_at ?? "").localeCompare(b.last_inbound_at ?? "") ||
        a.conversation_id.localeCompare(b.conversation_id),
    );
    let cursor = since;
    let blocked = false;
    let unchanged = 0;
    const settled = nameMapFrom(Object.entries(this.cursor.settled));
    for (const c of conversations) {
      // Events that came in meanwhile go first: a long pass does not hold up a fresh inbound's
      // answer for more than one conversation. Still one loop: no two settle a conversation at once.
      await this.settleQueuedEvents();
      // Ctrl-C or 402: the rest waits for the next run (the cursor stays before it).
      if (this.stopReason !== null || this.o.signal.aborted) break;
      const last = c.last_inbound_at ?? since;
      this.conversationProject.set(c.conversation_id, c.project_id);
      let done = own(settled, c.conversation_id) === last;
      if (done) unchanged++;
      else done = await this.settleConversation(c, since);
      if (done) settled[c.conversation_id] = last;
      else blocked = true;
      if (!blocked && last > cursor) cursor = last;
    }
    for (const [id, t] of Object.entries(settled)) if (t < cursor) delete settled[id];
    const endedAt = iso(this.o.now());
    this.saveCursor({ updatedSince: cursor, lastPassAt: iso(startedAt), settled });
    this.emit({
      type: "pass",
      at: endedAt,
      updated_since: since,
      conversations: conversations.length,
      unchanged,
      cursor,
      next_pass_at: iso(startedAt + this.o.pollIntervalMs),
    });
  }

  /** Settles every inbound of `c` since `since`, oldest first; true when none is left open. */
  private async settleConversation(c: Conversation, since: string): Promise<boolean> {
    const project = this.byId.get(c.project_id);
    const thread = await readThread(this.o.port, c.conversation_id, null);
    if (!thread.ok) {
      this.problem({ ...apiErrorDiagnostic(thread.error), code: "replies.poll-failed" });
      return false;
    }
    const inbounds = thread.value
      .filter((m) => m.direction === "inbound" && (m.received_at ?? "") >= since)
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
      if (settled.kind === "unknown" || settled.kind === "missing") open = true;
      if (this.stopReason !== null || this.o.signal.aborted) return false;
    }
    return !open;
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
        this.report(job, project, "unmatched", null, {});
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
