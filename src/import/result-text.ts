/**
 * The human summary of `campaignctl import` (stdout): one line per file written, or with `--check`
 * per file that would be, and with `--check` the unified diff of each file that would change. Pure.
 */
import { createTwoFilesPatch } from "diff";
import type { FileResult, ProjectResult } from "./import-files.js";
import { type FileStatus, fileStatus } from "./result-json.js";

/** What `--check` says of a file, by what an import would do to it. */
const WOULD: Readonly<Record<FileStatus, string>> = {
  created: "would create",
  updated: "would update",
  unchanged: "unchanged",
};

/** Ends with a newline, or is empty when there is no file and no project to speak of. */
export function renderImportText(
  files: readonly FileResult[],
  projects: readonly ProjectResult[],
  check: boolean,
): string {
  const out: string[] = [];
  if (projects.length === 0) out.push("No project matched the selection; nothing to write.\n");
  for (const file of files) {
    const count = projects.filter((p) => p.file === file.path).length;
    const status = fileStatus(file);
    out.push(`${check ? WOULD[status] : status} ${file.path} (${count} project${count === 1 ? "" : "s"})\n`);
    if (check && file.changed)
      out.push(createTwoFilesPatch(file.path, file.path, file.before ?? "", file.text, "files", "live"));
  }
  return out.join("");
}
