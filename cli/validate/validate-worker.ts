/**
 * Worker thread of `validate` (validate-workers.ts): checks the files it is sent, one message per
 * batch, and answers each batch with the files' own findings as plain data.
 */
import { parentPort } from "node:worker_threads";
import type { FileCheck, LoneFileCheck } from "../../src/campaign/file-check.js";
import type { CampaignFile } from "../../src/campaign/model.js";
import { readEnvironmentOnce } from "../lifecycle/environment.js";
import { type ValidateJob, validateFileAlone, validateLoneFile } from "./validate-check.js";

// A thread of validate's own process: its environment read once, as the main thread's is.
readEnvironmentOnce();

/**
 * A batch: the files (with their index in load order) and the job. `lone`: the batch is the run's
 * only file, checked with the checks across files too (`validateLoneFile`).
 */
export interface WorkerBatch {
  readonly job: ValidateJob;
  readonly lone?: boolean;
  readonly files: readonly { readonly index: number; readonly file: CampaignFile }[];
}

export interface WorkerAnswer {
  readonly results: readonly { readonly index: number; readonly check: FileCheck | LoneFileCheck }[];
}

parentPort?.on("message", (batch: WorkerBatch) => {
  const answer: WorkerAnswer = {
    results: batch.files.map(({ index, file }) => ({
      index,
      check: batch.lone === true ? validateLoneFile(file, batch.job) : validateFileAlone(file, batch.job),
    })),
  };
  parentPort?.postMessage(answer);
});
