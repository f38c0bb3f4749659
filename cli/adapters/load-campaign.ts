/**
 * Loading campaign files in one call, for commands: reads the paths (IO) and assembles the Campaign
 * (pure). Commands that need the files' text for rendering take it from `campaign.files`.
 */

import { type AssembleResult, assembleCampaign } from "../../src/campaign/assemble.js";
import { groupInstanceFindings } from "../../src/campaign/template-findings.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { readCampaignFiles } from "./campaign-files.js";

export interface LoadResult extends AssembleResult {
  /**
   * Every file problem, then every assembly problem, unsorted; a finding at a template's value for
   * several instances is one (template-findings.ts).
   */
  readonly diagnostics: readonly Diagnostic[];
}

/** Reads `paths` (files or directories, relative to `cwd`) and assembles them. */
export function loadCampaign(paths: readonly string[], cwd: string): LoadResult {
  const read = readCampaignFiles(paths, cwd);
  const assembled = assembleCampaign(read.files);
  return {
    ...assembled,
    diagnostics: groupInstanceFindings([...read.diagnostics, ...assembled.diagnostics]),
  };
}
