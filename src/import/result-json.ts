/**
 * The `import --json` document (`schemas/import-result.schema.json`, `format_version` 1): what was
 * (or, with `--check`, would be) written. One document also on failure: `ok: false` with the
 * diagnostics, `files` and `projects` empty. Pure.
 */

import { compareDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import { type DiagnosticJson, diagnosticJson } from "../diagnostics/json.js";
import type { FileResult, ProjectResult } from "./import-files.js";

export const IMPORT_FORMAT_VERSION = 1;

/**
 * Invariants: `ok` is false only when an error stopped the import (then `files` and `projects` are
 * empty and nothing was written); `changed` is true iff some file's `status` is not `unchanged`; with `check`, nothing
 * was written whatever `changed` says; every project's `file` is one of `files[].path`.
 */
export interface ImportJson {
  readonly format_version: 1;
  readonly ok: boolean;
  readonly check: boolean;
  readonly changed: boolean;
  readonly files: readonly {
    readonly path: string;
    readonly status: FileStatus;
    readonly projects: readonly string[];
  }[];
  readonly projects: readonly {
    readonly id: string;
    readonly name: string;
    readonly address: string;
    readonly file: string;
    readonly organization_id: string;
    readonly live_status: string;
    readonly state: string;
    readonly change: "added" | "updated" | "unchanged";
  }[];
  readonly diagnostics: readonly DiagnosticJson[];
}

export function importJson(
  files: readonly FileResult[],
  projects: readonly ProjectResult[],
  diagnostics: readonly Diagnostic[],
  check: boolean,
): ImportJson {
  // `--check` finding a change is an error of the run, not a failure to make the import.
  const ok = !diagnostics.some((d) => d.severity === "error" && d.code !== "import.would-change");
  const shownFiles = ok
    ? files.map((f) => ({
        path: f.path,
        status: fileStatus(f),
        projects: projects.filter((p) => p.file === f.path).map((p) => p.address),
      }))
    : [];
  return {
    format_version: IMPORT_FORMAT_VERSION,
    ok,
    check,
    changed: shownFiles.some((f) => f.status !== "unchanged"),
    files: shownFiles,
    projects: ok
      ? projects.map((p) => ({
          id: p.id,
          name: p.name,
          address: p.address,
          file: p.file,
          organization_id: p.organizationId,
          live_status: p.status,
          state: p.state,
          change: p.change,
        }))
      : [],
    diagnostics: [...diagnostics].sort(compareDiagnostics).map(diagnosticJson),
  };
}

/** What an import does to a file: writes a new one, changes one, or leaves it as it is. */
export type FileStatus = "created" | "updated" | "unchanged";

export function fileStatus(file: FileResult): FileStatus {
  if (file.before === undefined) return "created";
  return file.changed ? "updated" : "unchanged";
}

export function renderImportJson(document: ImportJson): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
