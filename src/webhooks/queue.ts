/**
 * The listener's work queue, a group-commit pipeline: the HTTP handler pushes a job and waits for
 * it; the jobs run in arrival order, a batch at a time: the jobs that arrived while the previous
 * batch was written (up to `batchLimit`) go together, so a burst costs one disk flush per batch
 * rather than one per event. Each batch has two phases: `write` (make it durable: append and flush)
 * and `publish` (print it, mark it printed, answer its senders). Writes run one at a time; a batch's
 * publish runs after its write, in batch order, one at a time, and after the NEXT batch's write has
 * started (issue 36): the flush of batch N+1 runs on the disk while batch N is printed and
 * answered, so the event loop's work of a batch is not added to the time between two flushes.
 * `maintain` (the record's compaction) runs between two writes, once every written batch was
 * published, with the jobs still waiting. Bounded, so a flood cannot grow memory without end: a
 * full queue refuses the job and the handler answers 503 (the sender retries).
 */

/** What a job that threw is reported to (a bug: jobs report their own failures). */
export type OnJobError = (error: unknown) => void;

/** The phases of a batch (see the file's comment). */
export interface BatchPhases<T> {
  /**
   * Makes `batch` durable: resolves true once it is, false when it could not be (the batch is then
   * done: `write` answered its jobs itself). Must start its IO before it returns (an async
   * function's part before its first `await`): the previous batch's publish runs right after.
   */
  readonly write: (batch: readonly T[]) => Promise<boolean>;
  /** What follows a successful write (print, mark, answer). */
  readonly publish: (batch: readonly T[]) => Promise<void>;
  /** Whether `maintain` is due now (asked before each write). */
  readonly maintenanceDue: () => boolean;
  /** Runs with no write running and every written batch published; `waiting` are the jobs not yet written. */
  readonly maintain: (waiting: readonly T[]) => void;
}

export class WorkQueue<T> {
  private readonly jobs: T[] = [];
  /** Jobs in the batch being written. */
  private writing = 0;
  /** Jobs written and not yet published. */
  private publishing = 0;
  /** A write is scheduled, running, or waiting to run (so a push does not start another). */
  private active = false;
  /** The last publish (batches publish in order, each after the one before). */
  private published: Promise<void> = Promise.resolve();
  private idleWaiters: (() => void)[] = [];

  /** Invariant: at most `limit` jobs wait (the batch being written not counted); a batch holds 1 to `batchLimit` jobs. */
  constructor(
    private readonly phases: BatchPhases<T>,
    readonly limit: number,
    private readonly onError: OnJobError,
    readonly batchLimit = 256,
    /** How the first batch after a pause is started: at once (default), or later (the receiver waits for the loop's I/O, so a batch collects every delivery read in one turn). */
    private readonly schedule: (run: () => void) => void = (run) => run(),
  ) {}

  /** Jobs waiting, being written, or written and not yet published. */
  get pending(): number {
    return this.jobs.length + this.writing + this.publishing;
  }

  /** Queues `job`; false (nothing queued) when `limit` jobs already wait. */
  push(job: T): boolean {
    if (this.jobs.length >= this.limit) return false;
    this.jobs.push(job);
    if (!this.active) {
      this.active = true;
      this.schedule(() => this.next());
    }
    return true;
  }

  /** Resolves once no job waits, is written or published (at once when idle). */
  drained(): Promise<void> {
    if (this.idle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private idle(): boolean {
    return !this.active && this.publishing === 0;
  }

  private wakeIfIdle(): void {
    if (!this.idle()) return;
    const woken = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of woken) resolve();
  }

  /** Writes the next batch, after the maintenance when it is due; stops when no job waits. */
  private next(): void {
    if (this.jobs.length === 0) {
      this.active = false;
      this.wakeIfIdle();
      return;
    }
    let due = false;
    try {
      due = this.phases.maintenanceDue();
    } catch (error) {
      this.onError(error);
    }
    if (!due) {
      this.write();
      return;
    }
    void this.published.then(() => {
      try {
        this.phases.maintain(this.jobs);
      } catch (error) {
        this.onError(error);
      }
      this.write();
    });
  }

  private write(): void {
    const batch = this.jobs.splice(0, this.batchLimit);
    this.writing = batch.length;
    let written: Promise<boolean>;
    try {
      written = this.phases.write(batch);
    } catch (error) {
      written = Promise.reject(error);
    }
    written
      .catch((error: unknown) => {
        this.onError(error);
        return false;
      })
      .then((ok) => {
        this.writing = 0;
        // Chained before the next write starts, so a maintenance the next write waits for waits for it too.
        if (ok) this.publishAfter(batch);
        this.next();
      });
  }

  private publishAfter(batch: readonly T[]): void {
    this.publishing += batch.length;
    this.published = this.published.then(async () => {
      try {
        await this.phases.publish(batch);
      } catch (error) {
        this.onError(error);
      }
      this.publishing -= batch.length;
      this.wakeIfIdle();
    });
  }
}
