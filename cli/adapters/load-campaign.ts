/**
 * Loading campaign files in one call, for commands: reads the paths (IO) and assembles the Campaign
 * (pure). Commands that need the files' text for rendering take it from `campaign.files`.
 */

import { type AssembleResult, assembleCampaign } from "../../src/campaign/assemble.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { readCampaignFiles } from "./campaign-files.js";

export interface LoadResult extends AssembleResult {
  /** Every file problem, then every assembly problem, unsorted. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Reads `paths` (files or directories, relative to `cwd`) and assembles them. */
export function loadCampaign(paths: readonly string[], cwd: string): LoadResult {
  const read = readCampaignFiles(paths, cwd);
  const assembled = assembleCampaign(read.files);
  return { ...assembled, diagnostics: [...read.diagnostics, ...assembled.diagnostics] };
}
