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
 * as before, and freezes it (about 1 % of assembling it). At most 32 files up to 64 KiB, keyed by
 * their text, and 2 larger ones up to 1 MiB, keyed by their bytes' digest (a plan of 1,000 projects
 * made again assembles its 150 KB file once, not each time: 0.4 s of CPU); a larger file, or one
 * without a digest, is assembled every time, unkept. A kept assembly holds about 16 times its text
 * (45 KB for examples/gotv.yaml's 2.8 KB), so the memos hold at most about 32 + 32 MB.
 */
const SMALL_FILE = 1 << 16;
const LARGE_FILE = 1 << 20;
const assembledFiles = boundedMemo<FileAssembly>({ max: 32, maxKeyLength: SMALL_FILE, freeze: true });
const assembledLargeFiles = boundedMemo<FileAssembly>({ max: 2, freeze: true });

function assembleKept(file: CampaignFile): FileAssembly {
  const make = () => assembleFile(file);
  const key = `${file.path}\0${file.text}`;
  if (key.length > SMALL_FILE && file.text.length <= LARGE_FILE && file.sha256 !== "")
    return assembledLargeFiles.get(`${file.path}\0${file.sha256}`, make);
  return assembledFiles.get(key, make);
}
