/**
 * The IO edge of loading: finds campaign files under the paths a user gave (directories are read
 * recursively for `*.yaml` / `*.yml`, in a stable order) and reads them. Everything after this is pure.
 */
import { type Dirent, readdirSync, type Stats, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import {
  type DecodedFile,
  decodeCampaignFile,
  fileTooLarge,
  MAX_CAMPAIGN_FILE_BYTES,
} from "../../src/campaign/decode.js";
import { hasYamlExtension } from "../../src/campaign/file-kind.js";
import type { CampaignFile } from "../../src/campaign/model.js";
import { isPolicyFileName, policyNearMiss } from "../../src/campaign/policy-file-name.js";
import { mayBeCampaignFile } from "../../src/campaign/schema-modeline.js";
import { fileStart } from "../../src/campaign/source-range.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { notRegularFile, withRegularFileSync } from "./regular-file.js";

export interface ReadResult {
  /** In the order given; within a directory sorted by relative path (code-unit order). */
  readonly files: readonly CampaignFile[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Files already read, by absolute path, with the size and modification time they had: a reader
 * that reads the same directory again and again (the language server, at every edit) passes one, and
 * a file whose size and time are unchanged is not read or decoded again.
 */
export type ReadCache = Map<
  string,
  { readonly size: number; readonly mtimeMs: number; readonly decoded: DecodedFile }
>;

/**
 * Reads the campaign files under `paths` (resolved against `cwd`; each file's `path` is the path as
 * given joined with its relative path). Hidden entries and `node_modules` inside a directory are
 * skipped, and symbolic links to directories are not followed (no loops); so is a YAML file in a
 * directory whose editor modeline declares another schema (the sandbox fixture). A file named
 * explicitly is read whatever its extension or schema. A file reached twice is read once.
 */
export function readCampaignFiles(paths: readonly string[], cwd: string, cache?: ReadCache): ReadResult {
  const files: CampaignFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const given of paths) {
    const absolute = resolve(cwd, given);
    const probed = probe(absolute);
    if (probed.kind === "error") {
      diagnostics.push(unreadable(given, probed.code));
      continue;
    }
    const stat = probed.stat;
    if (stat === undefined) {
      diagnostics.push({
        severity: "error",
        code: "cli.path-not-found",
        message: `path ${given} does not exist`,
        hint: "pass campaign files or directories that contain them",
      });
      continue;
    }
    const inDirectory = stat.isDirectory();
    const found = inDirectory ? listDirectory(absolute, given, diagnostics) : [{ absolute, shown: given }];
    for (const entry of found) {
      if (seen.has(entry.absolute)) continue;
      seen.add(entry.absolute);
      readOne(entry.absolute, entry.shown, inDirectory, files, diagnostics, cache);
    }
  }
  if (files.length === 0 && diagnostics.length === 0) {
    diagnostics.push({
      severity: "error",
      code: "cli.no-input",
      message: `no campaign files (*.yaml, *.yml) found in ${paths.join(", ")}`,
      hint: "pass the directory that holds your campaign files",
    });
  }
  return { files, diagnostics };
}

function readOne(
  absolute: string,
  shown: string,
  inDirectory: boolean,
  files: CampaignFile[],
  diagnostics: Diagnostic[],
  cache?: ReadCache,
): void {
  // A policy file named on the command line is no campaign file: say so, never read it as one
  // (its `rules:` would be an unknown key, and the policy would apply on top of itself).
  const name = basename(shown);
  const policyName = isPolicyFileName(name) ? name : policyNearMiss(name);
  if (!inDirectory && policyName !== undefined) {
    diagnostics.push({
      severity: "error",
      code: "campaign.not-campaign-file",
      message: `this is ${name === policyName ? "a policy file" : `named like a policy file (${policyName})`}, not a campaign file`,
      range: fileStart(shown),
      hint: "pass the campaign files or the directory that holds them: the policy files above them are found by themselves (add another with --policy FILE; see docs/policy.md)",
    });
    return;
  }
  // Only a regular file is read (regular-file.ts): a named pipe or a device would be waited on for ever.
  const read = withRegularFileSync(absolute, ({ size, mtimeMs }, bytes): Diagnostic | undefined => {
    if (size > MAX_CAMPAIGN_FILE_BYTES) return fileTooLarge(shown, size);
    const hit = cache?.get(absolute);
    const decoded =
      hit !== undefined && hit.size === size && hit.mtimeMs === mtimeMs && hit.decoded.file?.path === shown
        ? hit.decoded
        : decodeCampaignFile(shown, bytes());
    cache?.set(absolute, { size, mtimeMs, decoded });
    if (inDirectory && decoded.file && !mayBeCampaignFile(decoded.file.text)) return undefined;
    if (decoded.file) files.push(decoded.file);
    diagnostics.push(...decoded.diagnostics);
    return undefined;
  });
  if (!read.ok)
    diagnostics.push(
      read.kind === "not-regular" ? notRegularFile("", shown, read) : unreadable(shown, read.reason),
    );
  else if (read.value !== undefined) diagnostics.push(read.value);
}

/** `ENOENT`, `EACCES`, `ELOOP`... of a failed fs call, or "read error". */
function errorCode(error: unknown): string {
  return error instanceof Error && "code" in error ? String(error.code) : "read error";
}

const REASONS: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  ELOOP: "a loop of symbolic links",
  ENOENT: "a symbolic link to nothing",
  ENOTDIR: "a path through something that is not a directory",
  EISDIR: "a directory",
};

function unreadable(shown: string, code: string): Diagnostic {
  const reason = Object.hasOwn(REASONS, code) ? `${REASONS[code]}, ${code}` : code;
  return {
    severity: "error",
    code: "cli.file-unreadable",
    message: `cannot read ${shown} (${reason})`,
    hint: "fix the file's permissions or link, or move it out of the campaign directory",
  };
}

/** `stat` that reports a missing path as `undefined` and any other failure as its code. */
function probe(
  absolute: string,
):
  | { readonly kind: "ok"; readonly stat: Stats | undefined }
  | { readonly kind: "error"; readonly code: string } {
  try {
    return { kind: "ok", stat: statSync(absolute, { throwIfNoEntry: false }) };
  } catch (error) {
    return { kind: "error", code: errorCode(error) };
  }
}

interface Found {
  readonly absolute: string;
  readonly shown: string;
}

/**
 * The campaign files under a directory. An unreadable subdirectory, and a `*.yaml` entry that is a
 * dangling or looping symbolic link, are errors (never skipped in silence: a file that cannot be
 * read may be the one that pauses a send).
 */
function listDirectory(absoluteRoot: string, shownRoot: string, diagnostics: Diagnostic[]): Found[] {
  const relative: string[] = [];
  const pending: string[] = [""];
  while (pending.length > 0) {
    const dir = pending.pop() ?? "";
    let entries: Dirent[];
    try {
      entries = readdirSync(join(absoluteRoot, dir), { withFileTypes: true });
    } catch (error) {
      diagnostics.push(unreadable(dir === "" ? shownRoot : join(shownRoot, dir), errorCode(error)));
      continue;
    }
    for (const entry of entries) {
      // A policy file (and a misspelt one, which policy discovery reports) is never a campaign file.
      if (
        entry.name.startsWith(".") ||
        entry.name === "node_modules" ||
        isPolicyFileName(entry.name) ||
        policyNearMiss(entry.name) !== undefined
      )
        continue;
      const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) pending.push(rel);
      else if (hasYamlExtension(entry.name)) {
        if (entry.isFile()) relative.push(rel);
        else if (entry.isSymbolicLink()) {
          const target = probe(join(absoluteRoot, rel));
          if (target.kind === "error") diagnostics.push(unreadable(join(shownRoot, rel), target.code));
          else if (target.stat === undefined) diagnostics.push(unreadable(join(shownRoot, rel), "ENOENT"));
          else if (target.stat.isFile()) relative.push(rel);
        }
      }
    }
  }
  relative.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return relative.map((rel) => ({ absolute: join(absoluteRoot, rel), shown: join(shownRoot, rel) }));
}
