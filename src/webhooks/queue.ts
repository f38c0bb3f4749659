/**
 * The listener's work queue: the HTTP handler pushes a job and answers at once; the jobs (remember,
 * print, forward) run afterwards, in arrival order, one batch at a time: the jobs that arrived while
 * the previous batch ran (up to `batchLimit`) go together, so a burst costs one disk write per batch
 * rather than one per event. Bounded, so a flood cannot grow memory without end: a full queue
 * refuses the job and the handler answers 503 (the sender retries).
 */

/** What a job that threw is reported to (a bug: jobs report their own failures). */
export type OnJobError = (error: unknown) => void;

export class WorkQueue<T> {
  private readonly jobs: T[] = [];
  private running = 0;
  /** A run is scheduled or under way (so a push does not start another). */
  private active = false;
  private idle: Promise<void> = Promise.resolve();
  private settle: () => void = () => {};

  /** Invariant: at most `limit` jobs wait (the running batch not counted); a batch holds 1 to `batchLimit` jobs. */
  constructor(
    private readonly work: (batch: readonly T[]) => Promise<void>,
    readonly limit: number,
    private readonly onError: OnJobError,
    readonly batchLimit = 256,
    /** How a batch is started: at once (default), or later (the receiver waits for the loop's I/O, so a batch collects every delivery read in one turn). */
    private readonly schedule: (run: () => void) => void = (run) => run(),
  ) {}

  /** Jobs waiting or running. */
  get pending(): number {
    return this.jobs.length + this.running;
  }

  /** Queues `job`; false (nothing queued) when `limit` jobs already wait. */
  push(job: T): boolean {
    if (this.jobs.length >= this.limit) return false;
    this.jobs.push(job);
    if (!this.active) this.start();
    return true;
  }

  /** Resolves once no job waits or runs (at once when idle). */
  drained(): Promise<void> {
    return this.idle;
  }

  private start(): void {
    this.active = true;
    this.idle = new Promise((resolve) => {
      this.settle = resolve;
    });
    this.schedule(() => void this.run());
  }

  private async run(): Promise<void> {
    while (this.jobs.length > 0) {
      const batch = this.jobs.splice(0, this.batchLimit);
      this.running = batch.length;
      try {
        await this.work(batch);
      } catch (error) {
        this.onError(error);
      }
    }
    this.running = 0;
    this.active = false;
    this.settle();
  }
}
