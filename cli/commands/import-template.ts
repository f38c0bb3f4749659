/**
 * `campaignctl import --template NAME`: one template with its language variants and one instance per
 * selected project, written to one new file (`--out FILE.yaml`, or `--out DIR` -> DIR/NAME.yaml).
 * The IO around `src/import/template-import.ts`: checks the flags and the files already there before
 * the first request, reads the live projects through the session's client, writes the file only
 * when nothing failed; `--check` writes nothing and exits 1 when the file would change.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { type Diagnostic, hasErrors } from "../../src/diagnostics/diagnostic.js";
import { lintImported } from "../../src/import/lint-result.js";
import type { Selection } from "../../src/import/read-live.js";
import { importJson, renderImportJson } from "../../src/import/result-json.js";
import { renderImportText } from "../../src/import/result-text.js";
import { declaredBy } from "../../src/import/template-existing.js";
import { importTemplate } from "../../src/import/template-import.js";
import { alreadyDescribed, templateUsage, templateWouldChange } from "../../src/import/template-usage.js";
import { readCampaignFiles } from "../adapters/campaign-files.js";
import { saveFiles } from "../adapters/files.js";
import { readForImport } from "../gather/import-live.js";
import { openSession, type Session, type SessionOptions } from "../gather/session.js";
import { failWith } from "../output/fail.js";
import type { Io } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";
import { printDiagnostics } from "../output/print-diagnostics.js";
import { diskProbe, schemaReference } from "../output/schema-reference.js";
import type { ImportFlags } from "./import-flags.js";

export async function importTemplateCommand(
  template: string,
  selection: Selection,
  flags: ImportFlags,
  io: Io,
  options: SessionOptions,
): Promise<Outcome> {
  const fail = failing(flags, io);
  const usage = templateUsage(template, flags.language ?? []);
  if (usage.diagnostics.length > 0) return fail(usage.diagnostics);
  const target = templateTarget(template, flags.out, io);
  const opened = await openSession(flags, io, options);
  if (!opened.ok) return fail(opened.diagnostics);
  const session = opened.session;
  try {
    return await importTemplateWith(
      session,
      { template, selection, languages: usage.languages, target },
      flags,
      io,
    );
  } finally {
    await session.close();
  }
}

function failing(flags: ImportFlags, io: Io) {
  return (diagnostics: readonly Diagnostic[]): Outcome => {
    if (flags.json === true)
      io.stdout(renderImportJson(importJson([], [], diagnostics, flags.check === true)));
    return failWith(diagnostics, new Map(), io);
  };
}

/** The file to write, its text when it exists, and the campaign files beside it (their addresses and projects are taken). */
interface TemplateTarget {
  readonly path: string;
  readonly existing: string | undefined;
  readonly others: readonly { readonly path: string; readonly text: string }[];
  readonly declared: ReturnType<typeof declaredBy>;
}

/** `--out FILE.yaml` (or an existing file), else `--out DIR` -> DIR/NAME.yaml. */
function templateTarget(template: string, out: string, io: Io): TemplateTarget {
  const outPath = resolve(io.cwd, out);
  const toFile = /\.ya?ml$/i.test(out) || (existsSync(outPath) && statSync(outPath).isFile());
  const path = toFile ? out : join(out.replace(/\/+$/, "") || ".", `${template}.yaml`);
  const dir = toFile ? dirname(out) : out;
  const beside = existsSync(resolve(io.cwd, dir)) ? readCampaignFiles([dir], io.cwd).files : [];
  const existing = existsSync(resolve(io.cwd, path))
    ? readFileSync(resolve(io.cwd, path), "utf8")
    : undefined;
  const others = beside.filter((f) => resolve(io.cwd, f.path) !== resolve(io.cwd, path));
  return { path, existing, others, declared: declaredBy(others) };
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
  const fail = failing(flags, io);
  const check = flags.check === true;
  const { path, existing, others, declared } = input.target;
  // Keys per organization, then the reads, as `import` does (cli/gather/import-live.ts).
  const reads = await readForImport(session, input.selection);
  if (!reads.ok) return fail(reads.diagnostics);
  const { live } = reads;
  const twice = alreadyDescribed(
    live.projects.map((p) => p.project_id),
    declared.ids,
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
