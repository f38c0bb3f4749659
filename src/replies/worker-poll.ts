/**
 * The polling intake of the replies worker (worker.ts): a `GET /conversations` pass at most once a
 * minute of the API's clock (the start of the last pass is on disk, so restarts keep the pace too),
 * from `updated_since`, which advances to the newest `last_inbound_at` whose conversation was settled
 * with every older one (poll-window.ts). Inbounds the events missed are settled here. Events that
 * arrive during a pass are settled between two of its conversations (`between`), not after the pass.
 * IO goes through the port and state it is handed.
 */
import { apiErrorDiagnostic } from "../api/index.js";
import type { Conversation } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { nameMapFrom, own } from "../text/names.js";
import { wordList } from "../text/word-list.js";
import { cursorAfterPass, markedAt, nextPassAt, passFloor, passOrder, settledMark } from "./poll-window.js";
import { PAGE_LIMIT, readThread } from "./port.js";
import { type InboundJob, type SettleContext, settleInbound } from "./settle.js";
import type { PollCursor } from "./state-file.js";
import type { ConversationProjects } from "./worker-projects.js";
import { iso, receivedAt, type WorkerTally } from "./worker-tally.js";

/** What the passes need from the worker. */
export interface PollerContext {
  readonly settle: SettleContext;
  readonly firstWindowMs: number;
  readonly pollIntervalMs: number;
  readonly projects: ConversationProjects;
  readonly tally: WorkerTally;
  /** Settles the events queued meanwhile (called before each conversation of a pass). */
  readonly between: () => Promise<void>;
  /** Whether the run has stopped (a spent balance) or been stopped (the signal). */
  readonly stopped: () => boolean;
  /** See `WorkerOptions.unlisted`. */
  readonly unlisted?: () => readonly string[];
  /** See `WorkerOptions.beforePass`. */
  readonly beforePass?: () => Promise<readonly Diagnostic[]>;
}

/** The passes of one run. Invariant: `cursor` is the one on disk (saved before it is kept). */
export class Poller {
  private cursor: PollCursor;
  private failed = 0;
  private heldSaid = false;

  constructor(private readonly c: PollerContext) {
    this.cursor = c.settle.state.cursor;
  }

  /** Passes that failed to read. */
  get failedPasses(): number {
    return this.failed;
  }

  /** When the last pass started, as on disk (null before the first). */
  get lastPassAt(): string | null {
    return this.cursor.lastPassAt;
  }

  /** When the next pass may start: a minute after the last one started (now, if the clock went back). */
  nextPassAt(): number {
    return nextPassAt(this.cursor, this.c.settle.now(), this.c.pollIntervalMs);
  }

  /**
   * One `GET /conversations` pass, from the floor (poll-window.ts: the cursor less the overlap), its
   * conversations oldest first; those whose mark did not move since they were settled are skipped.
   */
  async pass(): Promise<void> {
    const { settle, tally } = this.c;
    for (const d of (await this.c.beforePass?.()) ?? []) tally.problem(d);
    // Projects the listing cannot see now: what it lists is settled, the cursor stays.
    const unlisted = this.c.unlisted?.() ?? [];
    const startedAt = settle.now();
    const floor = passFloor(this.cursor, startedAt, this.c.firstWindowMs);
    const since = iso(floor);
    // On disk before the first request: a pass that a kill cut short still counts for the pace.
    this.saveCursor({ ...this.cursor, lastPassAt: iso(startedAt) });
    tally.totals.passes++;
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
      await this.c.between();
      const last = c.last_inbound_at ?? since;
      // Ctrl-C or 402: the rest waits for the next run (the cursor stays before it).
      if (this.c.stopped()) {
        firstOpen ??= last;
        break;
      }
      this.c.projects.learn(c.conversation_id, c.project_id);
      const mark = settledMark(c);
      let done = own(settled, c.conversation_id) === mark;
      if (done) unchanged++;
      else done = await this.settleConversation(c, floor);
      if (done) settled[c.conversation_id] = mark;
      else firstOpen ??= last;
      if (done && firstOpen === null) settledUpTo = last;
    }
    for (const [id, mark] of Object.entries(settled)) if (!(markedAt(mark) >= floor)) delete settled[id];
    tally.pruneJudged(floor);
    const moved = cursorAfterPass(this.cursor.updatedSince ?? since, settledUpTo, firstOpen) ?? since;
    // Held: where it was, or (no cursor yet) this pass's floor, so that a first window never slides.
    const cursor = unlisted.length === 0 ? moved : (this.cursor.updatedSince ?? since);
    if (unlisted.length > 0) this.sayHeld(unlisted, cursor);
    this.saveCursor({ updatedSince: cursor, lastPassAt: iso(startedAt), settled });
    this.emitPass(startedAt, since, conversations.length, unchanged, cursor);
  }

  /** Once a run: the cursor stays at `at` while the listing cannot see `unlisted` (project addresses). */
  private sayHeld(unlisted: readonly string[], at: string): void {
    if (this.heldSaid) return;
    this.heldSaid = true;
    this.c.tally.problem({
      severity: "warning",
      code: "replies.cursor-held",
      message: `the conversations of ${wordList(unlisted)} cannot be listed nor answered now (their organization's key could not be used), so the cursor stays at ${at}: their inbounds are read from there once the key answers`,
      hint: "the other projects' inbounds are settled meanwhile; a run that goes on checks the key again (at most once a minute)",
    });
  }

  private emitPass(
    startedAt: number,
    since: string,
    conversations: number,
    unchanged: number,
    cursor: string,
  ) {
    this.c.tally.emit({
      type: "pass",
      at: iso(this.c.settle.now()),
      updated_since: since,
      conversations,
      unchanged,
      cursor,
      next_pass_at: iso(startedAt + this.c.pollIntervalMs),
    });
  }

  /**
   * Every conversation with an inbound since `since`; `failed` when a page could not be read (a
   * problem reported), `stopped` when the run was stopped meanwhile (not a failed pass).
   */
  private async listSince(since: string): Promise<Conversation[] | "failed" | "stopped"> {
    const { port, signal } = this.c.settle;
    const conversations: Conversation[] = [];
    let page: string | null = null;
    do {
      const res = await port.listConversations({ updated_since: since, limit: PAGE_LIMIT }, page);
      if (!res.ok && signal.aborted) return "stopped";
      if (!res.ok) {
        this.failed++;
        this.c.tally.problem({ ...apiErrorDiagnostic(res.error), code: "replies.poll-failed" });
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
    const { settle, tally } = this.c;
    const project = this.c.projects.project(c.project_id);
    const thread = await readThread(settle.port, c.conversation_id, null);
    if (!thread.ok && settle.signal.aborted) return false;
    if (!thread.ok) {
      tally.problem({ ...apiErrorDiagnostic(thread.error), code: "replies.poll-failed" });
      return false;
    }
    const inbounds = thread.value
      .filter((m) => m.direction === "inbound" && receivedAt(m) >= floor && !tally.isJudged(m.message_id))
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
        tally.report(job, null, "no-rules", null, { projectId: c.project_id });
        continue;
      }
      const settled = await settleInbound(settle, project, job, thread.value);
      tally.settled(job, project, settled, m);
      if (settled.kind === "unknown" || settled.kind === "missing") open = true;
      if (this.c.stopped()) return false;
    }
    return !open;
  }

  private saveCursor(cursor: PollCursor): void {
    this.cursor = cursor;
    this.c.settle.state.saveCursor(cursor);
  }
}
