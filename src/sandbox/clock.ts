/**
 * The sandbox's virtual clock. With `timeScale` 0 it moves only when advanced (tests); with a
 * positive scale it runs at that multiple of real time (the CLI's default is 1); `setTimeScale`
 * changes the speed of a running clock (`POST /_sandbox/clock/set {time_scale}`). Scheduled timers
 * and tick listeners are the seam phase-2 simulation code subscribes to: `schedule(at, fn)` runs
 * `fn` when virtual time reaches `at` (in order, with `now()` equal to `at`), and `onTick(fn)` hears
 * every jump of the clock. Invariant: `now()` never goes backwards except through `set`.
 */

export type TimerCallback = (nowMs: number) => void | Promise<void>;
export type TickListener = (nowMs: number) => void | Promise<void>;

interface Timer {
  readonly id: number;
  readonly at: number;
  readonly fn: TimerCallback;
}

export interface VirtualClockOptions {
  readonly startMs: number;
  readonly timeScale: number;
  /** Real monotonic milliseconds; injectable for tests. */
  readonly realNow?: () => number;
}

export class VirtualClock {
  private baseVirtual: number;
  private baseReal: number;
  private timeScale: number;
  private readonly realNow: () => number;
  private timers: Timer[] = [];
  private nextTimerId = 1;
  private readonly listeners = new Set<TickListener>();
  private realTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(options: VirtualClockOptions) {
    this.realNow = options.realNow ?? (() => performance.now());
    this.timeScale = options.timeScale;
    this.baseVirtual = options.startMs;
    this.baseReal = this.realNow();
  }

  nowMs(): number {
    if (this.timeScale === 0) return this.baseVirtual;
    return Math.floor(this.baseVirtual + (this.realNow() - this.baseReal) * this.timeScale);
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** Moves the clock forward by `ms`, running every timer due on the way, in time order. */
  advance(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new RangeError(`advance needs a non-negative duration, got ${ms}`);
    return this.serialize(() => this.runUntil(this.nowMs() + ms));
  }

  /** Jumps to `date`; forward jumps run due timers, backward jumps run none. */
  set(date: Date): Promise<void> {
    const target = date.getTime();
    return this.serialize(async () => {
      if (target >= this.nowMs()) await this.runUntil(target);
      else {
        this.rebase(target);
        await this.notify();
      }
    });
  }

  /** Virtual seconds per real second now (0: the clock moves only when advanced or set). */
  get scale(): number {
    return this.timeScale;
  }

  /**
   * Runs at `timeScale` from now on (0 freezes the clock): virtual time stays where it is, and only
   * its speed changes. Waits for a clock move in progress, like `advance` and `set`.
   */
  setTimeScale(timeScale: number): Promise<void> {
    if (!(timeScale >= 0 && Number.isFinite(timeScale)))
      throw new RangeError(`a time scale is a finite number >= 0, got ${timeScale}`);
    return this.serialize(async () => {
      this.rebase(this.nowMs());
      this.timeScale = timeScale;
      if (timeScale === 0 && this.realTimer) {
        clearTimeout(this.realTimer);
        this.realTimer = undefined;
      }
      this.armRealTimer();
    });
  }

  /** Runs `fn` when virtual time reaches `atMs` (at once on the next advance if already due). */
  schedule(atMs: number, fn: TimerCallback): { cancel(): void } {
    const timer: Timer = { id: this.nextTimerId++, at: atMs, fn };
    this.timers.push(timer);
    this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
    this.armRealTimer();
    return {
      cancel: () => {
        this.timers = this.timers.filter((t) => t !== timer);
      },
    };
  }

  /** Resolves when virtual time has moved `ms` forward (with scale 0: only when someone advances). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.schedule(this.nowMs() + ms, () => resolve());
    });
  }

  onTick(listener: TickListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops real-time timers; pending timers are dropped. */
  stop(): void {
    this.stopped = true;
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = undefined;
    this.timers = [];
  }

  private serialize(job: () => Promise<void>): Promise<void> {
    const next = this.running.then(job, job);
    this.running = next.catch(() => undefined);
    return next;
  }

  private rebase(virtualMs: number): void {
    this.baseVirtual = virtualMs;
    this.baseReal = this.realNow();
  }

  private async runUntil(target: number): Promise<void> {
    for (;;) {
      const due = this.timers[0];
      if (due === undefined || due.at > target) break;
      this.timers.shift();
      if (due.at > this.nowMs()) this.rebase(due.at);
      await due.fn(this.nowMs());
    }
    if (target > this.nowMs()) this.rebase(target);
    await this.notify();
    this.armRealTimer();
  }

  private async notify(): Promise<void> {
    const now = this.nowMs();
    for (const listener of [...this.listeners]) await listener(now);
  }

  /** In real-time mode, wakes up when the earliest timer falls due. */
  private armRealTimer(): void {
    if (this.timeScale === 0 || this.stopped) return;
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = undefined;
    const first = this.timers[0];
    if (first === undefined) return;
    const delay = Math.max(0, (first.at - this.nowMs()) / this.timeScale);
    this.realTimer = setTimeout(
      () => {
        this.realTimer = undefined;
        void this.serialize(() => this.runUntil(this.nowMs()));
      },
      Math.min(delay, 2 ** 31 - 1),
    );
    this.realTimer.unref();
  }
}
