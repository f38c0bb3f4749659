/**
 * `campaignctl import --template NAME`: one template with its language variants and one instance per
 * selected project, written to one new file (`--out FILE.yaml`, or `--out DIR` -> DIR/NAME.yaml).
 * The IO around `src/import/template-import.ts`: checks the flags and the files already there before
 * the first request, reads the live projects through the session's client, writes the file only
 * when nothing failed; `--check` writes nothing and exits 1 when the file would change.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { importRouting } from "../../src/api/routing/import-routes.js";
import { type Diagnostic, hasErrors } from "../../src/diagnostics/diagnostic.js";
import { ADDRESS_PATTERN } from "../../src/import/addresses.js";
import { lintImported } from "../../src/import/lint-result.js";
import { readLiveForImport, type Selection } from "../../src/import/read-live.js";
import { importJson, renderImportJson } from "../../src/import/result-json.js";
import { renderImportText } from "../../src/import/result-text.js";
import { declaredBy } from "../../src/import/template-existing.js";
import { importTemplate, LANGUAGE_TAG } from "../../src/import/template-import.js";
import { readCampaignFiles } from "../adapters/campaign-files.js";
import { failWith } from "../fail.js";
import { saveFiles } from "../files.js";
import type { Io } from "../io.js";
import { failure, type Outcome, success } from "../outcome.js";
import { printDiagnostics } from "../print-diagnostics.js";
import { diskProbe, schemaReference } from "../schema-reference.js";
import { openSession, type SessionOptions } from "../session.js";
import type { ImportFlags } from "./import-flags.js";

export async function importTemplateCommand(
  template: string,
  selection: Selection,
  flags: ImportFlags,
  io: Io,
  options: SessionOptions,
): Promise<Outcome> {
  const check = flags.check === true;
  const fail = (diagnostics: readonly Diagnostic[]) => {
    if (flags.json === true) io.stdout(renderImportJson(importJson([], [], diagnostics, check)));
    return failWith(diagnostics, new Map(), io);
  };
  const usage: Diagnostic[] = [];
  if (!ADDRESS_PATTERN.test(template))
    usage.push({
      severity: "error",
      code: "import.template-invalid-name",
      message: `--template ${JSON.stringify(template)} is not a valid template name`,
      hint: "use lower-case letters, digits and dashes, starting with a letter or digit (e.g. gotv-reminder)",
    });
  const languages = new Map<string, string>();
  for (const given of flags.language ?? []) {
    const at = given.indexOf("=");
    const id = given.slice(0, at);
    const tag = given.slice(at + 1);
    if (at <= 0 || !LANGUAGE_TAG.test(tag) || languages.has(id))
      usage.push({
        severity: "error",
        code: "import.template-invalid-name",
        message: `--language ${given}: ${languages.has(id) ? `${id} is given twice` : "expected PROJECT_ID=TAG with a language tag such as en, es or pt-BR"}`,
        hint: "e.g. --language 9a000000-0000-4000-8000-000000000001=es",
      });
    else languages.set(id, tag);
  }
  if (usage.length > 0) return fail(usage);

  // The file to write and the campaign files beside it (their addresses and projects are taken).
  const outPath = resolve(io.cwd, flags.out);
  const toFile = /\.ya?ml$/i.test(flags.out) || (existsSync(outPath) && statSync(outPath).isFile());
  const path = toFile ? flags.out : join(flags.out.replace(/\/+$/, "") || ".", `${template}.yaml`);
  const dir = toFile ? dirname(flags.out) : flags.out;
  const beside = existsSync(resolve(io.cwd, dir)) ? readCampaignFiles([dir], io.cwd).files : [];
  const existing = existsSync(resolve(io.cwd, path))
    ? readFileSync(resolve(io.cwd, path), "utf8")
    : undefined;
  const others = beside.filter((f) => resolve(io.cwd, f.path) !== resolve(io.cwd, path));
  const declared = declaredBy(others);

  const opened = await openSession(flags, io, options);
  if (!opened.ok) return fail(opened.diagnostics);
  const session = opened.session;
  try {
    // Keys per organization: each project read with its own organization's key, as `import` does.
    const routing = await importRouting(session.router);
    if (!routing.ok) return fail(routing.diagnostics);
    const live = await readLiveForImport(session.client, selection, () => session.now(), routing.beforeReads);
    if (!live.ok) return fail(live.diagnostics);
    const twice = live.projects.filter((p) => declared.ids.has(p.project_id));
    if (twice.length > 0)
      return fail([
        {
          severity: "error",
          code: "import.template-already-described",
          message: `already described: ${twice.map((p) => `${p.project_id} (${declared.ids.get(p.project_id)})`).join(", ")}`,
          hint: "a project is described once: remove it from that file first, or leave it out of the selection",
        },
      ]);
    const result = importTemplate({
      template,
      projects: live.projects,
      catalogs: live.catalogs,
      languages,
      path,
      ...(existing === undefined ? {} : { existing }),
      taken: declared.addresses,
      schema: schemaReference(resolve(io.cwd, path), "campaign", diskProbe),
    });
    if (!result.ok) return fail(result.diagnostics);
    // Live content that breaks a lint error rule is imported as it is; say so up front (as import does).
    const diagnostics: Diagnostic[] = [
      ...routing.diagnostics,
      ...lintImported([...others, { path, text: result.file.text }], new Set([path]), session.now()),
    ];
    if (check && result.file.changed)
      diagnostics.push({
        severity: "error",
        code: "import.would-change",
        message: `1 file would change: ${path}`,
        hint: "run campaignctl import without --check to write it, and review it",
      });
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
  } finally {
    await session.close();
  }
}
