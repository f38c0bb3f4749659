/**
 * Loading campaign files in one call, for commands: reads the paths (IO) and assembles the Campaign
 * (pure). Commands that need the files' text for rendering take it from `campaign.files`.
 */

import {
  type AssembleResult,
  assembleCampaign,
  assembleFile,
  type FileAssembly,
} from "../../src/campaign/assemble.js";
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

/** Reads `paths` (files or directories, relative to `cwd`) and assembles them. */
export function loadCampaign(paths: readonly string[], cwd: string): LoadResult {
  const read = readCampaignFiles(paths, cwd);
  const assembled = assembleCampaign(read.files, assembleKept);
  return {
    ...assembled,
    diagnostics: groupInstanceFindings([...read.diagnostics, ...assembled.diagnostics]),
  };
}

/**
 * Each file's own assembly (`assembleFile`: its YAML, schema and per-project checks, a function of
 * its name as shown and its text only) kept across the runs of this process, frozen
 * (src/text/bounded-memo.ts): the test suite's in-process runs load the same unchanged files run
 * after run, about 2 ms of CPU a file each time. A single run of the bin assembles each file once,
 * as before, and freezes it (about 1 % of assembling it). At most 32 files, one over 64 KiB
 * assembled every time, unkept: a kept assembly holds about 16 times its text (45 KB for
 * examples/gotv.yaml's 2.8 KB), so the memo holds at most about 32 MB.
 */
const assembledFiles = boundedMemo<FileAssembly>({ max: 32, maxKeyLength: 1 << 16, freeze: true });

function assembleKept(file: CampaignFile): FileAssembly {
  return assembledFiles.get(`${file.path}\0${file.text}`, () => assembleFile(file));
}
