/**
 * `campaignctl import`: writes campaign files from live projects (the IO around `src/import/`).
 * Checks `--out` and the files already there before the first request; reads in bulk through the
 * session's client; writes the changed files only when nothing failed, all of them or none
 * (`saveFiles`); `--check` writes nothing and exits 1 when a file would change.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type Diagnostic, hasErrors } from "../../src/diagnostics/diagnostic.js";
import { type ExistingFile, type ImportTarget, importFiles } from "../../src/import/import-files.js";
import { importSelection, importUsage, wouldChange } from "../../src/import/import-usage.js";
import { lintImported } from "../../src/import/lint-result.js";
import type { Selection } from "../../src/import/read-live.js";
import { importJson, renderImportJson } from "../../src/import/result-json.js";
import { renderImportText } from "../../src/import/result-text.js";
import { snapshotOf } from "../../src/plan/snapshot.js";
import { readExisting } from "../adapters/existing-campaign.js";
import { saveFiles } from "../adapters/files.js";
import { writeSnapshot } from "../adapters/snapshot-file.js";
import { readForImport } from "../gather/import-live.js";
import { openSession, type Session, type SessionOptions } from "../gather/session.js";
import type { Io } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";
import { printDiagnostics } from "../output/print-diagnostics.js";
import { diskProbe, schemaReference } from "../output/schema-reference.js";
import { importFailing } from "./import-failure.js";
import type { ImportFlags } from "./import-flags.js";

/** Runs `import`. Exported so tests can inject the client's clock and sleep. */
export async function importCommand(
  ids: readonly string[],
  flags: ImportFlags,
  io: Io,
  options: SessionOptions = {},
): Promise<Outcome> {
  const fail = importFailing(flags, io);
  const selection = importSelection(ids, flags);
  const usage = importUsage(selection, flags);
  if (usage.length > 0) return fail(usage);
  if (flags.template !== undefined) {
    const { importTemplateCommand } = await import("./import-template.js");
    return importTemplateCommand(flags.template, selection, flags, io, options);
  }
  const target = targetOf(flags.out, io);
  const existing = readExisting(target.kind === "file" ? target.path : target.dir, io.cwd);
  if (!existing.ok) return fail(existing.diagnostics, existing.sources);

  const opened = await openSession(flags, io, options);
  if (!opened.ok) return fail(opened.diagnostics);
  const session = opened.session;
  try {
    return await importWith(session, { selection, target, existing: existing.files }, flags, io);
  } finally {
    await session.close();
  }
}

/** Reads the selected projects with the session, makes the files, writes them (unless `--check`) and reports. */
async function importWith(
  session: Session,
  input: {
    readonly selection: Selection;
    readonly target: ImportTarget;
    readonly existing: readonly ExistingFile[];
  },
  flags: ImportFlags,
  io: Io,
): Promise<Outcome> {
  const fail = importFailing(flags, io);
  const check = flags.check === true;
  const { target, existing } = input;
  // Keys per organization, then the reads on the API's clock (cli/gather/import-live.ts).
  const reads = await readForImport(session, input.selection);
  if (!reads.ok) return fail(reads.diagnostics);
  const { live } = reads;
  const now = session.now();
  const result = importFiles({
    projects: live.projects,
    organizations: live.organizations,
    catalogs: live.catalogs,
    existing,
    target,
    now,
    schemaFor: (path) => schemaReference(resolve(io.cwd, path), "campaign", diskProbe),
  });
  if (!result.ok) return fail(result.diagnostics);
  const changed = result.files.filter((f) => f.changed);
  const after = [
    ...result.files.map((f) => ({ path: f.path, text: f.text })),
    ...existing.filter((e) => !result.files.some((f) => f.path === e.path)),
  ];
  const diagnostics: Diagnostic[] = [
    ...reads.routing,
    ...lintImported(after, new Set(result.projects.map((p) => p.file)), now),
    ...(check ? wouldChange(changed) : []),
  ];
  if (!check) {
    const written = await saveFiles(
      io,
      changed.map((f) => ({ path: f.path, text: f.text, what: "campaign file" })),
      { announce: false }, // the summary (or the JSON document) names each file written
    );
    if (written.length > 0) return fail(written);
    // The names read, for the editor's completion offline, beside the files written.
    const dir = resolve(io.cwd, target.kind === "file" ? dirname(target.path) : target.dir);
    diagnostics.push(...(await writeSnapshot(dir, snapshotOf(live.read, "import", now), io.cwd)));
  }
  if (flags.json === true) {
    io.stdout(renderImportJson(importJson(result.files, result.projects, diagnostics, check)));
  } else {
    const text = renderImportText(result.files, result.projects, check);
    if (text !== "") io.stdout(text);
  }
  const sources = new Map(after.map((f) => [f.path, f.text]));
  printDiagnostics(io, "stderr", diagnostics, sources, { verbose: false });
  return hasErrors(diagnostics) ? failure : success;
}

/** `--out x.yaml`/`.yml`, or an existing file: one file; anything else: a directory. */
function targetOf(out: string, io: Io): ImportTarget {
  const path = resolve(io.cwd, out);
  const isFile = /\.ya?ml$/i.test(out) || (existsSync(path) && statSync(path).isFile());
  return isFile ? { kind: "file", path: out } : { kind: "dir", dir: out.replace(/\/+$/, "") || "." };
}
