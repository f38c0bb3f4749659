/**
 * `campaignctl import --template NAME`: one template with its language variants and one instance per
 * selected project, written to one new file (`--out FILE.yaml`, or `--out DIR` -> DIR/NAME.yaml).
 * The IO around `src/import/template-import.ts`: checks the flags and the files already there before
 * the first request, reads the live projects through the session's client, writes the file only
 * when nothing failed; `--check` writes nothing and exits 1 when the file would change.
 */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Diagnostic, hasErrors } from "../../src/diagnostics/diagnostic.js";
import { declaredIn } from "../../src/import/existing-declared.js";
import type { ExistingFile } from "../../src/import/import-files.js";
import { lintImported } from "../../src/import/lint-result.js";
import type { Selection } from "../../src/import/read-live.js";
import { importJson, renderImportJson } from "../../src/import/result-json.js";
import { renderImportText } from "../../src/import/result-text.js";
import { importTemplate } from "../../src/import/template-import.js";
import { alreadyDescribed, templateUsage, templateWouldChange } from "../../src/import/template-usage.js";
import { type Existing, readExisting } from "../adapters/existing-campaign.js";
import { saveFiles } from "../adapters/files.js";
import { readForImport } from "../gather/import-live.js";
import { openSession, type Session, type SessionOptions } from "../gather/session.js";
import type { Io } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";
import { printDiagnostics } from "../output/print-diagnostics.js";
import { diskProbe, schemaReference } from "../output/schema-reference.js";
import { importFailing } from "./import-failure.js";
import type { ImportFlags } from "./import-flags.js";

export async function importTemplateCommand(
  template: string,
  selection: Selection,
  flags: ImportFlags,
  io: Io,
  options: SessionOptions,
): Promise<Outcome> {
  const fail = importFailing(flags, io);
  const usage = templateUsage(template, flags.language ?? []);
  if (usage.diagnostics.length > 0) return fail(usage.diagnostics);
  const target = templateTarget(template, flags.out, io);
  if (!target.ok) return fail(target.diagnostics, target.sources);
  const opened = await openSession(flags, io, options);
  if (!opened.ok) return fail(opened.diagnostics);
  const session = opened.session;
  try {
    return await importTemplateWith(
      session,
      { template, selection, languages: usage.languages, target: target.target },
      flags,
      io,
    );
  } finally {
    await session.close();
  }
}

/** The file to write, its text when it exists, and the campaign files beside it (their addresses and projects are taken). */
interface TemplateTarget {
  readonly path: string;
  readonly existing: string | undefined;
  readonly others: readonly ExistingFile[];
}

/**
 * `--out FILE.yaml` (or an existing file), else `--out DIR` -> DIR/NAME.yaml. The campaign files
 * under `--out` (that file, or the directory's files) must load without errors, as for `import`;
 * the others than NAME's file are those whose projects and addresses it must not take again.
 */
function templateTarget(
  template: string,
  out: string,
  io: Io,
): { readonly ok: true; readonly target: TemplateTarget } | Extract<Existing, { ok: false }> {
  const outPath = resolve(io.cwd, out);
  const toFile = /\.ya?ml$/i.test(out) || (existsSync(outPath) && statSync(outPath).isFile());
  const path = toFile ? out : join(out.replace(/\/+$/, "") || ".", `${template}.yaml`);
  const beside = readExisting(toFile ? path : out, io.cwd);
  if (!beside.ok) return beside;
  const isTarget = (f: ExistingFile) => resolve(io.cwd, f.path) === resolve(io.cwd, path);
  const existing = beside.files.find(isTarget)?.text;
  const others = beside.files.filter((f) => !isTarget(f));
  return { ok: true, target: { path, existing, others } };
}

/** Reads the selected projects with the session, makes the file, writes it (unless `--check`) and reports. */
async function importTemplateWith(
  session: Session,
  input: {
    readonly template: string;
    readonly selection: Selection;
    readonly languages: ReadonlyMap<string, string>;
    readonly target: TemplateTarget;
  },
  flags: ImportFlags,
  io: Io,
): Promise<Outcome> {
  const fail = importFailing(flags, io);
  const check = flags.check === true;
  const { path, existing, others } = input.target;
  // Keys per organization, then the reads, as `import` does (cli/gather/import-live.ts).
  const reads = await readForImport(session, input.selection);
  if (!reads.ok) return fail(reads.diagnostics);
  const { live } = reads;
  const declared = declaredIn(others, live.catalogs);
  const twice = alreadyDescribed(
    live.projects.map((p) => p.project_id),
    declared.homes,
  );
  if (twice.length > 0) return fail(twice);
  const result = importTemplate({
    template: input.template,
    projects: live.projects,
    catalogs: live.catalogs,
    languages: input.languages,
    path,
    ...(existing === undefined ? {} : { existing }),
    taken: declared.addresses,
    schema: schemaReference(resolve(io.cwd, path), "campaign", diskProbe),
  });
  if (!result.ok) return fail(result.diagnostics);
  // Live content that breaks a lint error rule is imported as it is; say so up front (as import does).
  const diagnostics: Diagnostic[] = [
    ...reads.routing,
    ...lintImported([...others, { path, text: result.file.text }], new Set([path]), session.now()),
    ...(check ? templateWouldChange(path, result.file.changed) : []),
  ];
  if (!check && result.file.changed) {
    const written = await saveFiles(io, [{ path, text: result.file.text, what: "campaign file" }], {
      announce: false, // the summary (or the JSON document) names the file written
    });
    if (written.length > 0) return fail(written);
  }
  if (flags.json === true)
    io.stdout(renderImportJson(importJson([result.file], result.instances, diagnostics, check)));
  else io.stdout(renderImportText([result.file], result.instances, check));
  printDiagnostics(io, "stderr", diagnostics, new Map([[path, result.file.text]]), { verbose: false });
  return hasErrors(diagnostics) ? failure : success;
}
