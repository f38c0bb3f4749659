/**
 * Worker thread of `validate` (validate-workers.ts): checks the files it is sent, one message per
 * batch, and answers each batch with the files' own findings as plain data.
 */
import { parentPort } from "node:worker_threads";
import {
  checkFileAlone,
  checkLoneFile,
  type FileCheck,
  type FileCheckJob,
  type LoneFileCheck,
} from "../src/campaign/file-check.js";
import type { CampaignFile } from "../src/campaign/model.js";

/**
 * A batch: the files (with their index in load order) and the job. `lone`: the batch is the run's
 * only file, checked with the checks across files too (`checkLoneFile`).
 */
export interface WorkerBatch {
  readonly job: FileCheckJob;
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
      check: batch.lone === true ? checkLoneFile(file, batch.job) : checkFileAlone(file, batch.job),
    })),
  };
  parentPort?.postMessage(answer);
});
