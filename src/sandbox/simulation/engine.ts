/**
 * The send simulation on the virtual clock. It keeps an agenda of work (activations, batches,
 * receipts, replies, link clicks) rebuilt from the World whenever the world is replaced (reset, state reload), and
 * one clock timer at the earliest due item. Each wake runs every due item inside one `store.mutate`
 * (touching each changed project once), then waits for the webhook deliveries it caused, so a clock
 * advance is deterministic end to end. Work due "now" (a project scheduled in the past, a resume)
 * runs at once through a zero-length clock advance.
 */
import type { VirtualClock } from "../clock.js";
import { touch } from "../routes/project-access.js";
import type { ProjectRecord, World } from "../state/world.js";
import { Agenda, type WorkItem } from "./agenda.js";
import { DailySends } from "./daily-cap.js";
import { activate, type ResumeOutcome, resume } from "./lifecycle.js";
import type { ObservedStore } from "./observed-store.js";
import { applyClick, applyReceipt, applyReply, nextClickAt } from "./receipts-and-replies.js";
import { runBatch } from "./send-batch.js";
import { DEFAULT_SETTINGS, type SimulationSettings } from "./settings.js";
import { iso, type StepContext } from "./step.js";

export interface SimulationDeps {
  readonly store: ObservedStore;
  readonly clock: VirtualClock;
  readonly seed: number;
  /** Resolves when the webhook deliveries in flight are done (awaited after every wake). */
  readonly settled: () => Promise<void>;
  readonly onBug: (error: unknown) => void;
}

export class SendSimulation {
  settings: SimulationSettings = DEFAULT_SETTINGS;
  private readonly queue = new Agenda();
  private readonly dailySends = new DailySends();
  /** The `scheduled_at` values put on the agenda, by project id (each once). */
  private readonly armedSchedules = new Map<string, Set<string>>();
  private world: World | undefined;
  private armed: { at: number; cancel(): void } | undefined;
  private waking = false;
  private stopped = false;

  constructor(private readonly deps: SimulationDeps) {}

  /** Hears every change of the world (see `ObservedStore`). */
  onChange(): void {
    if (this.stopped) return;
    if (this.deps.store.world !== this.world) this.rebuild();
    this.scanSchedules();
    if (!this.waking) this.arm();
  }

  /** The dashboard's "start again" of a paused project. */
  resume(projectId: string): ResumeOutcome | undefined {
    const p = this.deps.store.world.projects[projectId];
    if (p === undefined) return undefined;
    const outcome = this.step((ctx) => resume(ctx, p));
    if (outcome.ok) for (const item of outcome.work) this.queue.push(item);
    this.arm();
    return outcome;
  }

  stop(): void {
    this.stopped = true;
    this.armed?.cancel();
    this.armed = undefined;
  }

  private rebuild(): void {
    const w = this.deps.store.world;
    this.world = w;
    this.queue.clear();
    this.armedSchedules.clear();
    this.armed?.cancel();
    this.armed = undefined;
    this.dailySends.rebuild(w);
    for (const plan of Object.values(w.sendPlans))
      if (plan.next_batch_at !== null && w.projects[plan.project_id]?.status === "active")
        this.queue.push({ kind: "batch", at: Date.parse(plan.next_batch_at), projectId: plan.project_id });
    for (const m of Object.values(w.messages)) {
      if (m.status === "sent")
        this.queue.push({ kind: "receipt", at: Date.parse(m.receipt_at), messageId: m.message_id });
      else if (m.status === "delivered" && m.reply !== null && !m.reply.done)
        this.queue.push({ kind: "reply", at: Date.parse(m.reply.at), messageId: m.message_id });
      const click = nextClickAt(m);
      if (click !== null) this.queue.push({ kind: "click", at: click, messageId: m.message_id });
    }
  }

  /**
   * Puts an activation on the agenda for every (project, scheduled_at) not seen yet. It runs on
   * every change of the world, so it walks the projects without building anything for those
   * already seen (3,000 projects scheduled one request at a time made string keys quadratic).
   */
  private scanSchedules(): void {
    const { projects } = this.deps.store.world;
    for (const id in projects) {
      const p = projects[id];
      if (p === undefined || p.status !== "scheduled" || p.scheduled_at === null) continue;
      let seen = this.armedSchedules.get(p.project_id);
      if (seen?.has(p.scheduled_at)) continue;
      if (seen === undefined) {
        seen = new Set();
        this.armedSchedules.set(p.project_id, seen);
      }
      seen.add(p.scheduled_at);
      this.queue.push({ kind: "activate", at: Date.parse(p.scheduled_at), projectId: p.project_id });
    }
  }

  private arm(): void {
    if (this.stopped) return;
    const at = this.queue.peekAt();
    if (at === undefined || (this.armed !== undefined && this.armed.at <= at)) return;
    this.armed?.cancel();
    const { clock } = this.deps;
    const timer = clock.schedule(at, () => this.wake());
    this.armed = { at, cancel: () => timer.cancel() };
    if (at <= clock.nowMs()) clock.advance(0).catch(this.deps.onBug);
  }

  private async wake(): Promise<void> {
    this.armed = undefined;
    if (this.stopped) return;
    const now = this.deps.clock.nowMs();
    this.waking = true;
    try {
      this.step((ctx) => {
        for (let item = this.queue.popDue(now); item !== undefined; item = this.queue.popDue(now))
          for (const next of this.run(ctx, item)) this.queue.push(next);
      });
    } catch (error) {
      this.deps.onBug(error);
    } finally {
      this.waking = false;
    }
    await this.deps.settled();
    this.arm();
  }

  private run(ctx: StepContext, item: WorkItem): WorkItem[] {
    switch (item.kind) {
      case "activate":
        return activate(ctx, item.projectId);
      case "batch": {
        const p = ctx.world.projects[item.projectId];
        const plan = ctx.world.sendPlans[item.projectId];
        if (p === undefined || plan === undefined || p.status !== "active" || p.deleted === true) return [];
        if (plan.next_batch_at !== iso(item.at)) return [];
        return runBatch(ctx, p, plan);
      }
      case "receipt":
        return applyReceipt(ctx, item.messageId);
      case "reply":
        applyReply(ctx, item.messageId);
        return [];
      case "click":
        return applyClick(ctx, item.messageId);
    }
  }

  /** Runs `change` in one `store.mutate` at the clock's now; touches every project it changed. */
  private step<T>(change: (ctx: StepContext) => T): T {
    const { store, clock, seed } = this.deps;
    const nowMs = clock.nowMs();
    return store.mutate((world) => {
      const dirty = new Set<ProjectRecord>();
      const ctx: StepContext = {
        store,
        world,
        nowMs,
        seed,
        settings: this.settings,
        dailySends: this.dailySends,
        dirty,
      };
      const result = change(ctx);
      for (const p of dirty) touch(p, nowMs);
      return result;
    });
  }
}
