/**
 * What a replies run reports (worker.ts): each inbound it settles becomes one `inbound` event and
 * counts in the run's totals; API refusals and a spent balance become `problem` events. The tally
 * also remembers the inbounds the run judged for good (so a pass that reads them again skips them)
 * and those whose outcome is still unknown (the run's `pending`). Pure: events go to `onEvent`,
 * time comes from `now`.
 */
import { apiErrorDiagnostic } from "../api/index.js";
import type { ThreadMessage } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { emptyTotals, type InboundOutcome, type RunEvent, type RunStopReason } from "./events.js";
import type { ReplyProject } from "./port.js";
import type { InboundJob, Settled } from "./settle.js";

export const iso = (ms: number) => new Date(ms).toISOString();

/** When an inbound was received (ms); before any floor when the thread does not say (not judged). */
export const receivedAt = (m: ThreadMessage): number => {
  const at = Date.parse(m.received_at ?? "");
  return Number.isNaN(at) ? Number.NEGATIVE_INFINITY : at;
};

/** What the tally needs: the clock, where events go, and who stops the run when no answer can go out. */
export interface TallyOptions {
  readonly now: () => number;
  readonly onEvent: (event: RunEvent) => void;
  /** Called when an answer was refused for want of balance, or for the key: the run stops. */
  readonly onStop: (reason: Extract<RunStopReason, "insufficient-balance" | "key-refused">) => void;
}

/** The answers that stop the run: nothing sent for them, nothing recorded; a later run answers them. */
const STOPS = {
  "no-balance": {
    reason: "insufficient-balance",
    code: "replies.insufficient-balance",
    hint: "add funds to the organization that owns the project, then start the worker again: nothing was charged, and every inbound not yet answered is answered then",
  },
  "key-refused": {
    reason: "key-refused",
    code: "replies.key-refused",
    hint: "use a key of the project's organization that may write (public:write), then start the worker again: nothing was sent, and every inbound not yet answered is answered then",
  },
} as const;

/** Details of an `inbound` event beyond its job, project, outcome and rule. */
interface InboundDetail {
  readonly answerId?: string | null;
  readonly segments?: number;
  readonly detail?: string | null;
  readonly projectId?: string;
}

/**
 * The run's totals and memory of inbounds. Invariants: `pending` holds the inbounds whose last
 * outcome was `unknown`; an inbound is in the judged set iff its last outcome was final (neither
 * `unknown`, `unreadable`, `missing`, `no-balance` nor `key-refused`) and it was received at or after the last floor pruned.
 */
export class WorkerTally {
  readonly totals = emptyTotals();
  private readonly unknown = new Set<string>();
  /**
   * Inbounds this run judged for good, by message id, with when they were received (ms): a pass that
   * reads them again (the overlap) skips them instead of reporting them again. Pruned below the floor.
   */
  private readonly judged = new Map<string, number>();

  constructor(private readonly o: TallyOptions) {}

  /** Inbounds whose outcome is still unknown (tried again by the next run). */
  get pending(): number {
    return this.unknown.size;
  }

  /** Whether this run judged the inbound for good already. */
  isJudged(messageId: string): boolean {
    return this.judged.has(messageId);
  }

  /** Forgets the judged inbounds received before `floor` (ms): no pass reads them again. */
  pruneJudged(floor: number): void {
    for (const [id, at] of this.judged) if (at < floor) this.judged.delete(id);
  }

  /** Counts a settled inbound, reports it, and remembers it when judged for good (`m`, its thread message). */
  settled(job: InboundJob, project: ReplyProject, s: Settled, m: ThreadMessage | undefined): void {
    this.count(job, project, s);
    this.judgedFor(m, s);
  }

  /** Remembers an inbound judged for good (not `unknown`, `unreadable`, `missing`, `no-balance`, `key-refused`). */
  private judgedFor(m: ThreadMessage | undefined, s: Settled): void {
    if (m === undefined) return;
    switch (s.kind) {
      case "unknown":
      case "unreadable":
      case "missing":
      case "no-balance":
      case "key-refused":
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
      case "key-refused":
      case "no-balance": {
        const stop = STOPS[s.kind];
        this.o.onStop(stop.reason);
        this.problem({ ...apiErrorDiagnostic(s.error), code: stop.code, hint: stop.hint });
        this.report(job, project, s.kind, null, {});
        return;
      }
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

  /** One `inbound` event (a `no-rules` outcome counts in the totals here). */
  report(
    job: InboundJob,
    project: ReplyProject | null,
    outcome: InboundOutcome,
    rule: string | null,
    extra: InboundDetail,
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

  problem(diagnostic: Diagnostic): void {
    this.emit({ type: "problem", at: iso(this.o.now()), diagnostic });
  }

  emit(event: RunEvent): void {
    this.o.onEvent(event);
  }
}
