/**
 * Loading campaign files in one call, for commands: reads the paths (IO) and assembles the Campaign
 * (pure). Commands that need the files' text for rendering take it from `campaign.files`.
 */

import { type AssembleResult, assembleCampaign } from "../../src/campaign/assemble.js";
import type { CampaignFile } from "../../src/campaign/model.js";
import { groupInstanceFindings } from "../../src/campaign/template-findings.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { boundedMemo } from "../../src/text/bounded-memo.js";
import { readCampaignFiles } from "./campaign-files.js";

export interface LoadResult extends AssembleResult {
  /**
   * Every file problem, then every assembly problem, unsorted; a finding at a template's value for
   * several instances is one (template-findings.ts).
   */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Campaigns assembled in this process, by every file's name as shown and text (src/text/bounded-memo.ts,
 * each kept result frozen): a long-lived process (watch, the test suite's in-process runs) assembles
 * unchanged files once. Assembly is pure: the same files give the same campaign. Files over 4 MiB
 * of text in all are assembled every time.
 */
const assembled = boundedMemo<AssembleResult>({ max: 8, maxKeyLength: 4 << 20, freeze: true });

function assembleKept(files: readonly CampaignFile[]): AssembleResult {
  const key = JSON.stringify(files.map((f) => [f.path, f.text]));
  return assembled.get(key, () => assembleCampaign(files));
}

/** Reads `paths` (files or directories, relative to `cwd`) and assembles them. */
export function loadCampaign(paths: readonly string[], cwd: string): LoadResult {
  const read = readCampaignFiles(paths, cwd);
  const campaign = assembleKept(read.files);
  return {
    ...campaign,
    diagnostics: groupInstanceFindings([...read.diagnostics, ...campaign.diagnostics]),
  };
}
