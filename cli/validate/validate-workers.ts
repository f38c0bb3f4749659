/**
 * Checks campaign files for `validate` on worker threads: each file's own checks (parse, schema,
 * per-project rules and lint, policy) are independent, and parsing YAML with positions is most of
 * the time, so files are spread over up to 3 workers while the main thread checks files too.
 * Small inputs are checked in-process (starting a worker costs more than it saves), and so are all
 * files on a machine with fewer than 3 cores (see MIN_CORES) or whose cores are busy already
 * (sampled for 40 ms), and
 * everything when the compiled worker is not there (tests run the TypeScript sources) or a worker
 * fails: no file is ever left unchecked. Set CAMPAIGNCTL_VALIDATE_WORKERS=0 to use no worker.
 * Files checked on this thread are kept as plain data too (`validateFileAlone`), so each file's YAML
 * document is garbage once its checks are done instead of living until the end of the run.
 * A run of one file checks it here too, unless CAMPAIGNCTL_VALIDATE_WORKERS asks for a worker (the
 * lone worker, with a bounded heap: see LONE_WORKER_LIMITS and loneOnWorker).
 */
import { existsSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { type ResourceLimits, Worker } from "node:worker_threads";
import type { CheckedFile } from "../../src/campaign/file-check.js";
import type { CampaignFile } from "../../src/campaign/model.js";
import {
  type ValidateJob,
  validateFileAlone,
  validateFileInPlace,
  validateLoneFile,
} from "./validate-check.js";
import type { WorkerAnswer, WorkerBatch } from "./validate-worker.js";

/**
 * Below this much text in all, no worker is started: a worker takes about 0.25 s to load the
 * modules and compile the schema, about what one thread spends on 0.5 MiB of YAML.
 */
const MIN_PARALLEL_CHARS = 1024 * 1024;
const MAX_WORKERS = 3;

/**
 * Below this many cores no worker is started. Measured on a 2-vCPU machine (bench/README.md,
 * 2026-11-22): with one worker, each thread checked a file in 24 to 30 ms against 13 ms for one
 * thread alone (parsing YAML is bound by memory, and V8's collector already uses the second core),
 * so the pair was no faster while the worker's start-up took 0.5 s and 1 s of CPU.
 */
const MIN_CORES = 3;
const WORKER_URL = new URL("./validate-worker.js", import.meta.url);

/** How long the idle cores are sampled for, before deciding on workers (large inputs only). */
const IDLE_SAMPLE_MS = 40;

/** CAMPAIGNCTL_VALIDATE_WORKERS as a count, or undefined when it is not set to digits. */
function givenWorkers(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const given = env.CAMPAIGNCTL_VALIDATE_WORKERS;
  return given !== undefined && /^\d+$/.test(given) ? Number(given) : undefined;
}

/** The compiled worker is there (not when tests run the TypeScript sources). */
const hasCompiledWorker = (): boolean => existsSync(fileURLToPath(WORKER_URL));

/**
 * A worker whose answers go to `onAnswer`, and whose failure (an error, or exiting, even after
 * being terminated) to `onFailure`; `post` sends it a batch, false when that failed.
 */
function startWorker(
  onAnswer: (answer: WorkerAnswer) => void,
  onFailure: () => void,
  resourceLimits?: ResourceLimits,
): { readonly worker: Worker; readonly post: (batch: WorkerBatch) => boolean } {
  const worker = new Worker(WORKER_URL, resourceLimits === undefined ? {} : { resourceLimits });
  worker.on("message", onAnswer);
  worker.on("error", onFailure);
  worker.on("exit", onFailure);
  const post = (batch: WorkerBatch): boolean => {
    try {
      worker.postMessage(batch);
      return true;
    } catch {
      return false;
    }
  };
  return { worker, post };
}

async function workerCount(
  files: readonly CampaignFile[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const given = givenWorkers(env);
  if (given !== undefined) return Math.min(given, files.length - 1, 16);
  if (files.length < 2) return 0;
  const chars = files.reduce((sum, f) => sum + f.text.length, 0);
  if (chars < MIN_PARALLEL_CHARS || availableParallelism() < MIN_CORES) return 0;
  // Only idle cores help: on a busy machine a worker only adds its start-up to the work.
  const idle = Math.round(await idleCores(IDLE_SAMPLE_MS));
  return Math.max(0, Math.min(idle - 1, availableParallelism() - 1, MAX_WORKERS, files.length - 1));
}

/** How many cores were idle over the next `ms` milliseconds (0 to the number of cores). */
async function idleCores(ms: number): Promise<number> {
  const before = cpus();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = cpus();
  let idle = 0;
  after.forEach((cpu, i) => {
    const was = before[i];
    if (was === undefined) return;
    const total =
      Object.values(cpu.times).reduce((a, b) => a + b, 0) -
      Object.values(was.times).reduce((a, b) => a + b, 0);
    if (total > 0) idle += (cpu.times.idle - was.times.idle) / total;
  });
  return idle;
}

/**
 * The lone worker's heap. Its peak is set by when V8 runs its full collections: the YAML parser's
 * tokens are garbage once the document is built, and a heap allowed to reach gigabytes (the main
 * thread's default) grows to up to 4 times its live size before the next full collection, so that
 * garbage stays. Under a 1 GiB maximum V8 grows a heap by at most about 1.6 times, and a 16 MiB
 * young generation (default 48) promotes less of the short-lived garbage. On the 10 MiB bench file
 * (bench/README.md; a campaign file may not be larger) peak RSS fell from 555 to 620 MiB to about
 * 470, in every run; its check also passes under 384 MiB. Other limits measured: 512 to 768 MiB
 * with 16 MiB were at 500 to 560 MiB RSS, 1.5 GiB or 32 MiB young varied from run to run (440 to
 * 640). A worker that runs out of memory fails like any other: the file is then checked here.
 */
const LONE_WORKER_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 16 };

/**
 * The only file of a run is checked on the lone worker only when CAMPAIGNCTL_VALIDATE_WORKERS=N
 * (N >= 1) asks for it. Issue 10 sent every file of 4 MiB or more there, for memory; issue 36
 * measured the 10 MiB bench file (bench/README.md) checked whole on this thread (`validateLoneFile`)
 * at a lower peak (419 to 422 MiB against 438 to 448 on the worker) and about 1 s of CPU less (5.1
 * to 5.3 s against 6.1 to 6.2: the worker's own start-up, its modules loaded again, its smaller
 * young generation), so it no longer pays for itself.
 */
function loneOnWorker(env: Readonly<Record<string, string | undefined>>): boolean {
  const given = givenWorkers(env);
  return given !== undefined && given > 0;
}

/**
 * The only file of a run, checked on one worker with the checks across files (`validateLoneFile`)
 * while this thread waits; in-process when the compiled worker is not there or the worker fails.
 */
function checkLoneOnWorker(file: CampaignFile, job: ValidateJob): Promise<CheckedFile> {
  if (!hasCompiledWorker()) return Promise.resolve(validateFileInPlace(file, job));
  return new Promise((resolve) => {
    let settled = false;
    const settle = (check: CheckedFile | undefined) => {
      if (settled) return;
      settled = true;
      // Wait for the worker's heap to go before a retry on this thread needs memory of its own.
      void worker.terminate().then(() => resolve(check ?? validateFileInPlace(file, job)));
    };
    const { worker, post } = startWorker(
      (answer) => settle(answer.results[0]?.check),
      () => settle(undefined),
      LONE_WORKER_LIMITS,
    );
    if (!post({ job, lone: true, files: [{ index: 0, file }] })) settle(undefined);
  });
}

const yieldToEvents = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Each file's own findings, in the order of `files`. */
export async function checkFiles(
  files: readonly CampaignFile[],
  job: ValidateJob,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<CheckedFile[]> {
  const lone = files.length === 1 ? files[0] : undefined;
  if (lone !== undefined)
    return [loneOnWorker(env) ? await checkLoneOnWorker(lone, job) : validateLoneFile(lone, job)];
  const wanted = await workerCount(files, env);
  if (wanted <= 0 || !hasCompiledWorker()) {
    return files.map((file) => validateFileAlone(file, job));
  }
  const pool = new FilePool(files, job, wanted + 1);
  for (let i = 0; i < wanted; i++) pool.addWorker();
  try {
    await pool.checkOnMainThread();
  } finally {
    await pool.terminate();
  }
  return pool.results.map((check, index) => check ?? validateFileAlone(files[index] as CampaignFile, job));
}

/**
 * The files of one validation shared between worker threads and the main thread: batches handed to
 * each worker as it asks, the rest checked on the main thread, the batch of a worker that dies
 * checked again there.
 */
class FilePool {
  readonly results: (CheckedFile | undefined)[];
  /** File indexes still to check, largest files first (so the last pieces of work are small and the threads finish together). */
  private readonly queue: number[];
  private outstanding = 0;
  private readonly workers: Worker[] = [];
  /** The file indexes each worker is checking now. */
  private readonly pending = new Map<Worker, number[]>();
  private wake: (() => void) | undefined;

  constructor(
    private readonly files: readonly CampaignFile[],
    private readonly job: ValidateJob,
    private readonly threads: number,
  ) {
    this.results = new Array(files.length);
    this.queue = files
      .map((_, index) => index)
      .sort((a, b) => (files[b]?.text.length ?? 0) - (files[a]?.text.length ?? 0));
  }

  addWorker(): void {
    const { worker, post } = startWorker(
      (answer) => {
        for (const { index, check } of answer.results) this.results[index] = check;
        this.pending.delete(worker);
        this.outstanding--;
        this.dispatch(worker, post);
        this.notify();
      },
      () => {
        this.retire(worker);
        this.notify();
      },
    );
    this.workers.push(worker);
    this.dispatch(worker, post);
  }

  /** Checks files on the main thread until none is left to check nor out on a worker. */
  async checkOnMainThread(): Promise<void> {
    for (;;) {
      const index = this.queue.shift();
      if (index !== undefined) {
        this.results[index] = validateFileAlone(this.files[index] as CampaignFile, this.job);
        await yieldToEvents();
        continue;
      }
      if (this.outstanding === 0) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  async terminate(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  private dispatch(worker: Worker, post: (batch: WorkerBatch) => boolean): boolean {
    const size = Math.max(1, Math.ceil(this.queue.length / (3 * this.threads)));
    const indexes = this.queue.splice(0, size);
    if (indexes.length === 0) return false;
    const batch = indexes.map((index) => ({ index, file: this.files[index] as CampaignFile }));
    if (!post({ job: this.job, files: batch })) {
      this.queue.unshift(...indexes);
      return false;
    }
    this.outstanding++;
    this.pending.set(worker, indexes);
    return true;
  }

  private retire(worker: Worker): void {
    const lost = this.pending.get(worker);
    if (lost !== undefined) {
      this.pending.delete(worker);
      this.outstanding--;
      this.queue.unshift(...lost); // the main thread checks them
    }
    void worker.terminate();
  }
}
