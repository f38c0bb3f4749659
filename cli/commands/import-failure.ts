/**
 * The end of an `import` run (plain or `--template`) that cannot go on: the diagnostics on stderr,
 * and with `--json` the command's document too, with no file and no project.
 */
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { importJson, renderImportJson } from "../../src/import/result-json.js";
import { failWith } from "../output/fail.js";
import type { Io } from "../output/io.js";
import type { Outcome } from "../output/outcome.js";
import type { ImportFlags } from "./import-flags.js";

/** A function ending the run with these diagnostics (quoting `sources` where they point). */
export function importFailing(flags: ImportFlags, io: Io) {
  return (diagnostics: readonly Diagnostic[], sources: ReadonlyMap<string, string> = new Map()): Outcome => {
    if (flags.json === true)
      io.stdout(renderImportJson(importJson([], [], diagnostics, flags.check === true)));
    return failWith(diagnostics, sources, io);
  };
}
