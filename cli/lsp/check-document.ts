/**
 * `validate`'s check of one open document, on the editor's text rather than the file on disk: the
 * same decoding (src/campaign/decode.ts), the same policy discovery from the document's path
 * (../adapters/policy-file.ts) and the same pure checks (../validate/validate-check.ts, src/campaign/file-check.ts) as
 * `campaignctl validate`. Alone, the findings are `validate FILE`'s for the buffer. In a workspace
 * folder, the checks across files (duplicate addresses and ids, `after:`, the lint across projects)
 * run over every campaign file `validate FOLDER` would read, each open one as its buffer stands,
 * and the document gets those that point into it. Offline; reads only files under the folder and
 * the policy files above the document.
 */
import { basename } from "node:path";
import { assembleFile } from "../../src/campaign/assemble.js";
import { decodeCampaignFile, decodeEditorText } from "../../src/campaign/decode.js";
import {
  type CheckedFile,
  checkFileAlone,
  combineFileChecks,
  type FileCheck,
} from "../../src/campaign/file-check.js";
import type { CampaignFile } from "../../src/campaign/model.js";
import { isPolicyFileName } from "../../src/campaign/policy-file-name.js";
import { mayBeCampaignFile } from "../../src/campaign/schema-modeline.js";
import { groupInstanceFindings } from "../../src/campaign/template-findings.js";
import { compareDiagnostics, type Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { type ReadCache, readCampaignFiles } from "../adapters/campaign-files.js";
import { type LoadedPolicy, loadPolicy, type PolicyFlags } from "../adapters/policy-file.js";
import type { LookCache } from "../policy-discovery/discover.js";
import type { ValidateJob } from "../validate/validate-check.js";
import {
  checkIncrementally,
  checkWhole,
  jobKeyOf,
  type MiniCache,
  moveAll,
  moveDiagnostic,
  type OwnMove,
  type OwnState,
} from "./incremental-check.js";
import { splitAfterEdit, splitProjects } from "./project-chunks.js";
import { inValidateOrder, mergeInOrder } from "./sorted-findings.js";

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
 * What a server keeps between checks of its documents, by path: each one's own check (to check an
 * edit of one project without checking the file whole, incremental-check.ts) and its findings
 * across files (reused while the other files and what they read of this one are unchanged).
 */
export interface CheckMemory {
  readonly documents: Map<string, RememberedCheck>;
  /** How the edits of remembered documents were checked: one entry alone, or the file whole. */
  readonly counts: { incremental: number; whole: number };
  readonly minis: MiniCache;
  /** Directory listings of policy discovery, kept while each directory is unchanged. */
  readonly looks: LookCache;
}

interface RememberedCheck {
  readonly own: OwnState;
  /** The other files as they were checked against (paths and contents, in read order). */
  readonly othersKey: string;
  readonly cross: readonly Diagnostic[];
}

/** An empty memory, for one server session. */
export function checkMemory(): CheckMemory {
  return { documents: new Map(), minis: new Map(), looks: new Map(), counts: { incremental: 0, whole: 0 } };
}

/** The policy found for the document at `path` and the check's job (validate's, with `context`'s clock). */
export function jobOf(
  context: DocumentCheckContext,
  path: string,
  looks?: LookCache,
): { readonly job: ValidateJob; readonly policy: LoadedPolicy } {
  const policy = loadPolicy(context.flags, [path], context.cwd, looks);
  const job: ValidateJob = {
    now: context.now.getTime(),
    ...(context.clock === undefined ? {} : { clock: context.clock }),
    policy: policy.ok ? policy.policy : null,
  };
  return { job, policy };
}

/**
 * Validate's diagnostics for the document at `path` (absolute) holding `text`, sorted as validate
 * sorts them: alone, or with the findings across the files of `workspace`. A policy file, or a YAML
 * file whose modeline declares another schema, is not a campaign file: nothing is reported for it.
 * With `memory`, an edit of one project is checked without checking the file whole, with the same
 * result (incremental-check.ts), and the directories above it are listed again (to find the policy
 * files) only when they changed (cli/policy-discovery/discover.ts).
 */
export function checkDocument(
  path: string,
  text: string,
  context: DocumentCheckContext,
  workspace?: Workspace,
  memory?: CheckMemory,
): Diagnostic[] {
  if (!isCampaignDocument(path, text)) {
    memory?.documents.delete(path);
    return [];
  }
  const decoded = decodeEditorText(path, text);
  const { job, policy } = jobOf(context, path, memory?.looks);
  const file = decoded.file;
  if (file === undefined) {
    memory?.documents.delete(path);
    return [...decoded.diagnostics, ...policy.diagnostics].sort(compareDiagnostics);
  }
  const jobKey = jobKeyOf(job);
  const previous = memory?.documents.get(path);
  let own: OwnState | undefined;
  let moved: OwnMove | undefined;
  if (previous !== undefined && memory !== undefined) {
    const before = previous.own;
    const split =
      before.split === undefined
        ? splitProjects(file.text)
        : splitAfterEdit(before.text, before.split, file.text);
    const done =
      split === undefined
        ? undefined
        : checkIncrementally(previous.own, file, split, job, jobKey, memory.minis);
    if (done !== undefined) {
      own = { jobKey, now: job.now, text: file.text, split, check: done.check };
      moved = done.moved;
    }
  }
  if (previous !== undefined && memory !== undefined)
    memory.counts[own === undefined ? "whole" : "incremental"] += 1;
  own ??= checkWhole(file, job, jobKey);
  const others = workspace === undefined ? undefined : othersOf(file, job, workspace);
  const othersKey = others?.key ?? "";
  let cross: readonly Diagnostic[] | undefined;
  // The checks across files read the clock only for `at: now` (the order of `after:`).
  const clockFree =
    previous?.own.now === job.now ||
    !(others?.checks ?? []).some((c) => c?.projects.some((p) => p.schedule?.at === "now") === true);
  if (previous !== undefined && moved?.crossSame === true && previous.othersKey === othersKey && clockFree) {
    const move = moved.move;
    cross = moveAll(previous.cross, (d) => moveDiagnostic(d, move));
  }
  cross ??= inValidateOrder(crossFindings(file, own.check, job, others?.checks));
  memory?.documents.set(path, { own, othersKey, cross });
  // As validate gathers them: a finding at a template's value for several instances is one. A file
  // cut into `projects:` entries has no template (project-chunks.ts), so nothing to gather, and the
  // list is merged from its parts in order (the own check's findings are kept in order: OwnState).
  if (own.split?.kind === "projects") {
    const first = mergeInOrder(inValidateOrder(decoded.diagnostics), own.check.diagnostics);
    return [
      ...mergeInOrder(mergeInOrder(first, inValidateOrder(cross)), inValidateOrder(policy.diagnostics)),
    ];
  }
  const all = [...decoded.diagnostics, ...own.check.diagnostics, ...cross, ...policy.diagnostics];
  return groupInstanceFindings(all).sort(compareDiagnostics);
}

/** The workspace's other campaign files' checks in the order `validate FOLDER` reads (this one's place as null). */
function othersOf(
  file: CampaignFile,
  job: ValidateJob,
  workspace: Workspace,
): { readonly key: string; readonly checks: readonly (FileCheck | null)[] } {
  const read = readCampaignFiles([workspace.folder], workspace.folder, workspace.reads);
  const checks: (FileCheck | null)[] = [];
  const key: string[] = [];
  let placed = false;
  for (const other of read.files) {
    if (other.path === file.path) {
      checks.push(null);
      key.push("");
      placed = true;
      continue;
    }
    const current = currentText(other, workspace.buffers);
    if (current === undefined) continue;
    checks.push({ ...cachedCheck(current, job, workspace.cache), diagnostics: [] });
    key.push(`${current.path}\0${current.sha256}`);
  }
  if (!placed) {
    checks.push(null);
    key.push("");
  }
  return { key: key.join("\n"), checks };
}

/**
 * The findings of the checks across files (duplicate addresses and ids, `after:`, the lint across
 * projects) that point into the document: over the document alone, or among `others` (the
 * workspace's files in read order, the document's place as null). The other files' own findings
 * are left out (their documents show them); the document keeps its place in the order
 * `validate FOLDER` reads, so a duplicate is reported where validate reports it.
 */
function crossFindings(
  file: CampaignFile,
  own: FileCheck,
  job: ValidateJob,
  others: readonly (FileCheck | null)[] | undefined,
): Diagnostic[] {
  const mine: FileCheck = { ...own, diagnostics: [] };
  const checks: CheckedFile[] = others === undefined ? [mine] : others.map((c) => c ?? mine);
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
 * completion; nothing is read over the network. With `memory`, the document's last check is used
 * when it was of this text.
 */
export function addressesAround(
  path: string,
  text: string,
  workspace?: Workspace,
  memory?: CheckMemory,
): string[] {
  // The last check's declarations when it was of this text (the usual case: completion after a check).
  const remembered = memory?.documents.get(path)?.own;
  const file =
    remembered?.text === text ? undefined : decodeCampaignFile(path, Buffer.from(text, "utf8")).file;
  const own =
    remembered?.text === text
      ? remembered.check.declarations.map((d) => d.address)
      : file === undefined
        ? []
        : assembleFile(file).declarations.map((d) => d.address);
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
