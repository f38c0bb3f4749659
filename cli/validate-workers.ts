/**
 * Checks campaign files for `validate` on worker threads: each file's own checks (parse, schema,
 * per-project rules and lint, policy) are independent, and parsing YAML with positions is most of
 * the time, so files are spread over up to 3 workers while the main thread checks files too.
 * Small inputs are checked in-process (starting a worker costs more than it saves), and so is
 * everything when the compiled worker is not there (tests run the TypeScript sources) or a worker
 * fails: no file is ever left unchecked. Set CAMPAIGNCTL_VALIDATE_WORKERS=0 to use no worker.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { checkFileAlone, type FileCheck, type FileCheckJob } from "../src/campaign/file-check.js";
import type { CampaignFile } from "../src/campaign/model.js";
import type { WorkerAnswer, WorkerBatch } from "./validate-worker.js";

/** Below this much text in all, no worker is started. */
const MIN_PARALLEL_CHARS = 256 * 1024;
const MAX_WORKERS = 3;
const WORKER_URL = new URL("./validate-worker.js", import.meta.url);

function workerCount(files: readonly CampaignFile[], env: Readonly<Record<string, string | undefined>>): number {
  const given = env.CAMPAIGNCTL_VALIDATE_WORKERS;
  if (given !== undefined && /^\d+$/.test(given)) return Math.min(Number(given), files.length - 1, 16);
  if (files.length < 2) return 0;
  const chars = files.reduce((sum, f) => sum + f.text.length, 0);
  if (chars < MIN_PARALLEL_CHARS) return 0;
  return Math.max(0, Math.min(availableParallelism() - 1, MAX_WORKERS, files.length - 1));
}

const yieldToEvents = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Each file's own findings, in the order of `files`. */
export async function checkFiles(
  files: readonly CampaignFile[],
  job: FileCheckJob,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<FileCheck[]> {
  const results: (FileCheck | undefined)[] = new Array(files.length);
  const wanted = workerCount(files, env);
  if (wanted <= 0 || !existsSync(fileURLToPath(WORKER_URL))) {
    return files.map((file) => checkFileAlone(file, job));
  }
  // Largest files first, so the last pieces of work are small and the threads finish together.
  const queue = files
    .map((_, index) => index)
    .sort((a, b) => (files[b]?.text.length ?? 0) - (files[a]?.text.length ?? 0));
  const threads = wanted + 1;
  let outstanding = 0;
  const workers: Worker[] = [];
  /** The file indexes each worker is checking now. */
  const pending = new Map<Worker, number[]>();
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  const dispatch = (worker: Worker): boolean => {
    const size = Math.max(1, Math.ceil(queue.length / (3 * threads)));
    const indexes = queue.splice(0, size);
    if (indexes.length === 0) return false;
    const batch: WorkerBatch = {
      job,
      files: indexes.map((index) => ({ index, file: files[index] as CampaignFile })),
    };
    try {
      worker.postMessage(batch);
    } catch {
      queue.unshift(...indexes);
      return false;
    }
    outstanding++;
    pending.set(worker, indexes);
    return true;
  };
  const retire = (worker: Worker) => {
    const lost = pending.get(worker);
    if (lost !== undefined) {
      pending.delete(worker);
      outstanding--;
      queue.unshift(...lost); // the main thread checks them
    }
    void worker.terminate();
  };

  for (let i = 0; i < wanted; i++) {
    const worker = new Worker(WORKER_URL);
    workers.push(worker);
    worker.on("message", (answer: WorkerAnswer) => {
      for (const { index, check } of answer.results) results[index] = check;
      pending.delete(worker);
      outstanding--;
      dispatch(worker);
      notify();
    });
    worker.on("error", () => {
      retire(worker);
      notify();
    });
    worker.on("exit", () => {
      if (pending.has(worker)) retire(worker);
      notify();
    });
    dispatch(worker);
  }

  try {
    for (;;) {
      const index = queue.shift();
      if (index !== undefined) {
        results[index] = checkFileAlone(files[index] as CampaignFile, job);
        await yieldToEvents();
        continue;
      }
      if (outstanding === 0) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results.map((check, index) => check ?? checkFileAlone(files[index] as CampaignFile, job));
}
