/**
 * `validate`'s check of one open document, on the editor's text rather than the file on disk: the
 * same decoding (src/campaign/decode.ts), the same policy discovery from the document's path
 * (../policy-file.ts) and the same pure checks (../validate-check.ts, src/campaign/file-check.ts) as
 * `campaignctl validate`. Alone, the findings are `validate FILE`'s for the buffer. In a workspace
 * folder, the checks across files (duplicate addresses and ids, `after:`, the lint across projects)
 * run over every campaign file `validate FOLDER` would read, each open one as its buffer stands,
 * and the document gets those that point into it. Offline; reads only files under the folder and
 * the policy files above the document.
 */
import { basename } from "node:path";
import { assembleFile, type FileAssembly } from "../../src/campaign/assemble.js";
import { decodeCampaignFile } from "../../src/campaign/decode.js";
import {
  type CheckedFile,
  checkFileAlone,
  combineFileChecks,
  type FileCheck,
} from "../../src/campaign/file-check.js";
import type { CampaignFile } from "../../src/campaign/model.js";
import { isPolicyFileName } from "../../src/campaign/policy-file-name.js";
import { type ReadCache, readCampaignFiles } from "../../src/campaign/read-files.js";
import { mayBeCampaignFile } from "../../src/campaign/schema-modeline.js";
import { compareDiagnostics, type Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { loadPolicy, type PolicyFlags } from "../policy-file.js";
import { type ValidateJob, validateFileInPlace, validateLoneFile } from "../validate-check.js";

/** What a document's check needs besides its text. */
export interface DocumentCheckContext {
  readonly flags: PolicyFlags;
  readonly cwd: string;
  /** The instant past schedules are judged against (`--now`, else the clock at each check). */
  readonly now: Date;
  /** Set when `--now` gave the instant (named in the past-schedule finding, as validate does). */
  readonly clock?: string;
}

/**
 * The other files of a workspace, for the checks across files: where each open buffer's text
 * replaces its file's, and a cache of each file's own check by path and content (sha256).
 */
export interface Workspace {
  /** The workspace folder (absolute), read as `validate FOLDER` reads it. */
  readonly folder: string;
  /** Open documents' texts by absolute path: what is checked instead of the file on disk. */
  readonly buffers: ReadonlyMap<string, string>;
  readonly cache: Map<string, FileCheck>;
  /** The folder's files as last read, by path, size and time: unchanged files are not read again. */
  readonly reads?: ReadCache;
}

/** True for a document that is a campaign file (not a policy file, no modeline of another schema). */
export function isCampaignDocument(path: string, text: string): boolean {
  return !isPolicyFileName(basename(path)) && mayBeCampaignFile(text);
}

/**
 * Validate's diagnostics for the document at `path` (absolute) holding `text`, sorted as validate
 * sorts them: alone, or with the findings across the files of `workspace`. A policy file, or a YAML
 * file whose modeline declares another schema, is not a campaign file: nothing is reported for it.
 */
export function checkDocument(
  path: string,
  text: string,
  context: DocumentCheckContext,
  workspace?: Workspace,
): Diagnostic[] {
  if (!isCampaignDocument(path, text)) return [];
  const decoded = decodeCampaignFile(path, Buffer.from(text, "utf8"));
  const policy = loadPolicy(context.flags, [path], context.cwd);
  const job: ValidateJob = {
    now: context.now.getTime(),
    ...(context.clock === undefined ? {} : { clock: context.clock }),
    policy: policy.ok ? policy.policy : null,
  };
  const file = decoded.file;
  const checked =
    file === undefined
      ? []
      : workspace === undefined
        ? combineFileChecks([validateLoneFile(file, job)], job).diagnostics
        : checkAmong(file, job, workspace);
  return [...decoded.diagnostics, ...checked, ...policy.diagnostics].sort(compareDiagnostics);
}

/**
 * The document's own findings and those across the workspace's files that point into it. The
 * other files' own findings are left out (their documents show them); the document keeps its
 * place in the order `validate FOLDER` reads, so a duplicate is reported where validate reports it.
 */
function checkAmong(file: CampaignFile, job: ValidateJob, workspace: Workspace): Diagnostic[] {
  const read = readCampaignFiles([workspace.folder], workspace.folder, workspace.reads);
  const own: FileAssembly = validateFileInPlace(file, job);
  const checks: CheckedFile[] = [];
  let placed = false;
  for (const other of read.files) {
    if (other.path === file.path) {
      checks.push(own);
      placed = true;
      continue;
    }
    const current = currentText(other, workspace.buffers);
    if (current === undefined) continue;
    checks.push({ ...cachedCheck(current, job, workspace.cache), diagnostics: [] });
  }
  if (!placed) checks.push(own);
  return combineFileChecks(checks, job).diagnostics.filter(
    (d) => d.range === undefined || d.range.file === file.path,
  );
}

/** The file as its open buffer has it, or as on disk; undefined when the buffer is no campaign file. */
function currentText(file: CampaignFile, buffers: ReadonlyMap<string, string>): CampaignFile | undefined {
  const buffer = buffers.get(file.path);
  if (buffer === undefined) return file;
  if (!isCampaignDocument(file.path, buffer)) return undefined;
  return decodeCampaignFile(file.path, Buffer.from(buffer, "utf8")).file;
}

/** A file's own check (no policy: only its declarations and projects are used), cached by content. */
function cachedCheck(file: CampaignFile, job: ValidateJob, cache: Map<string, FileCheck>): FileCheck {
  const key = `${file.path}\0${file.sha256}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const checked = checkFileAlone(file, { now: job.now });
  // One entry per path: an edited file's older checks are dropped.
  for (const k of cache.keys()) if (k.startsWith(`${file.path}\0`)) cache.delete(k);
  cache.set(key, checked);
  return checked;
}

/**
 * The addresses declared in the document (as its buffer stands) and, in a workspace folder, in the
 * other campaign files `validate FOLDER` would read (open ones as their buffers stand). For `after:`
 * completion; nothing is read over the network.
 */
export function addressesAround(path: string, text: string, workspace?: Workspace): string[] {
  const file = decodeCampaignFile(path, Buffer.from(text, "utf8")).file;
  const own = file === undefined ? [] : assembleFile(file).declarations.map((d) => d.address);
  if (workspace === undefined) return own;
  const others = readCampaignFiles([workspace.folder], workspace.folder, workspace.reads).files.flatMap(
    (other) => {
      if (other.path === path) return [];
      const current = currentText(other, workspace.buffers);
      if (current === undefined) return [];
      return cachedCheck(current, { now: null, policy: null }, workspace.cache).declarations.map(
        (d) => d.address,
      );
    },
  );
  return [...own, ...others];
}
