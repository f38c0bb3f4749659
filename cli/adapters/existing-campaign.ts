/**
 * The campaign files already where `import` writes (plain or `--template`), read before the first
 * request: they must load without errors, by the one campaign loader, to be updated or written
 * beside. Both import commands take what the files declare from them (src/import/existing-declared.ts).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { groupInstanceFindings } from "../../src/campaign/template-findings.js";
import { type Diagnostic, hasErrors } from "../../src/diagnostics/diagnostic.js";
import type { ExistingFile } from "../../src/import/import-files.js";
import { readCampaignFiles } from "./campaign-files.js";

/** The files under a path, or why import may not write there (with their texts, to quote the errors). */
export type Existing =
  | { readonly ok: true; readonly files: readonly ExistingFile[] }
  | {
      readonly ok: false;
      readonly diagnostics: readonly Diagnostic[];
      readonly sources: ReadonlyMap<string, string>;
    };

/** The campaign files under `path` (a file or a directory, relative to `cwd`; none when it does not exist). */
export function readExisting(path: string, cwd: string): Existing {
  if (!existsSync(resolve(cwd, path))) return { ok: true, files: [] };
  const read = readCampaignFiles([path], cwd);
  const readErrors = read.diagnostics.filter((d) => d.severity === "error" && d.code !== "cli.no-input");
  if (readErrors.length > 0) return { ok: false, diagnostics: readErrors, sources: new Map() };
  const loaded = assembleCampaign(read.files);
  const sources = new Map(read.files.map((f) => [f.path, f.text]));
  if (hasErrors(loaded.diagnostics))
    return {
      ok: false,
      diagnostics: [
        ...groupInstanceFindings(loaded.diagnostics.filter((d) => d.severity === "error")),
        {
          severity: "error",
          code: "import.existing-file-invalid",
          message: `the campaign files under ${path} do not load, so import cannot update them`,
          hint: "fix the errors above (campaignctl validate), then import again",
        },
      ],
      sources,
    };
  return { ok: true, files: read.files.map((f) => ({ path: f.path, text: f.text })) };
}
