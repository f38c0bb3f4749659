/**
 * Worker thread of `validate` (validate-workers.ts): checks the files it is sent, one message per
 * batch, and answers each batch with the files' own findings as plain data.
 */
import { parentPort } from "node:worker_threads";
import { checkFileAlone, type FileCheck, type FileCheckJob } from "../src/campaign/file-check.js";
import type { CampaignFile } from "../src/campaign/model.js";

/** A batch: the files (with their index in load order) and the job. */
export interface WorkerBatch {
  readonly job: FileCheckJob;
  readonly files: readonly { readonly index: number; readonly file: CampaignFile }[];
}

export interface WorkerAnswer {
  readonly results: readonly { readonly index: number; readonly check: FileCheck }[];
}

parentPort?.on("message", (batch: WorkerBatch) => {
  const answer: WorkerAnswer = {
    results: batch.files.map(({ index, file }) => ({ index, check: checkFileAlone(file, batch.job) })),
  };
  parentPort?.postMessage(answer);
});
