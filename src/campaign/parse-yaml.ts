/**
 * Parses one campaign file's text into a YAML document with source positions, and reports every
 * YAML-level problem: syntax (all of them, not just the first), duplicate keys, unknown aliases,
 * several documents in one file, empty files. Pure.
 */
import { type Document, isScalar, LineCounter, parseAllDocuments, visit, type YAMLError } from "yaml";
import type { Diagnostic, RelatedInformation, Severity } from "../diagnostics/diagnostic.js";
import type { CampaignFile } from "./model.js";
import { fileStart, rangeAt, type SourceText } from "./source-range.js";
import { campaignCodeOfYamlError } from "./yaml-errors.js";

/** At most this many YAML errors are listed per file; the rest are counted in one more diagnostic. */
export const MAX_YAML_ERRORS_PER_FILE = 20;

export interface ParsedFile {
  readonly source: SourceText;
  /**
   * The file's (first) document, absent for an empty file. `usable` is false when YAML errors make
   * its content unreliable: then the file's schema is not checked, to avoid cascades.
   */
  readonly doc?: Document.Parsed;
  readonly usable: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

export function parseCampaignFile(file: CampaignFile): ParsedFile {
  const lineCounter = new LineCounter();
  const source: SourceText = { file: file.path, text: file.text, lineCounter };
  const docs = parseAllDocuments(file.text, { lineCounter, prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [];
  const diagnostics: Diagnostic[] = [];
  if (!Array.isArray(docs)) {
    // An EmptyStream: only comments, directives or nothing at all.
    diagnostics.push(emptyFile(file.path));
    return { source, usable: false, diagnostics };
  }
  const first = list[0];
  if (first === undefined || (first.contents === null && first.errors.length === 0)) {
    diagnostics.push(emptyFile(file.path));
    return { source, usable: false, diagnostics };
  }
  // Duplicate keys are reported by our own pass below, with both places.
  const allErrors = list.flatMap((d) => d.errors);
  const yamlErrors = allErrors.filter((e) => e.code !== "DUPLICATE_KEY");
  const yamlWarnings = list.flatMap((d) => d.warnings);
  pushYamlProblems(source, yamlErrors, "error", diagnostics);
  pushYamlProblems(source, yamlWarnings, "warning", diagnostics);
  for (const extra of list.slice(1)) {
    diagnostics.push({
      severity: "error",
      code: "campaign.multiple-documents",
      message: "a campaign file holds one YAML document, this is another one",
      range: rangeAt(source, extra.range[0], extra.range[0] + 3),
      hint: "remove the `---` separator and merge the projects into one `projects:` map, or use one file per document",
    });
  }
  // The structural pass walks the whole tree: only when there is something for it to find.
  const needsWalk = allErrors.length > yamlErrors.length || file.text.includes("*");
  const structural = needsWalk ? structuralProblems(source, first) : [];
  diagnostics.push(...structural);
  const usable = yamlErrors.length === 0 && !structural.some((d) => d.code === "campaign.yaml-alias");
  return { source, doc: first, usable, diagnostics };
}

function emptyFile(path: string): Diagnostic {
  return {
    severity: "warning",
    code: "campaign.empty-file",
    message: "file is empty: it describes no projects",
    range: fileStart(path),
    hint: "start it with `version: 1` and a `projects:` map, or delete it",
  };
}

function pushYamlProblems(
  source: SourceText,
  problems: readonly YAMLError[],
  severity: Severity,
  out: Diagnostic[],
): void {
  for (const problem of problems.slice(0, MAX_YAML_ERRORS_PER_FILE)) {
    out.push({
      severity,
      code: campaignCodeOfYamlError(problem.code),
      message: firstLine(problem.message),
      range: rangeAt(source, problem.pos[0], problem.pos[1]),
    });
  }
  const more = problems.length - MAX_YAML_ERRORS_PER_FILE;
  const last = problems[MAX_YAML_ERRORS_PER_FILE];
  if (more > 0 && last !== undefined) {
    out.push({
      severity,
      code: "campaign.yaml-syntax",
      message: `${more} more YAML ${severity === "error" ? "errors" : "warnings"} in this file are not shown`,
      range: rangeAt(source, last.pos[0], last.pos[1]),
      hint: "fix the ones above first; is this really a YAML file?",
    });
  }
}

function firstLine(message: string): string {
  const line = message.split("\n", 1)[0] ?? message;
  return line.replace(/[.:]\s*$/, "");
}

/** Duplicate keys (both places) and aliases to anchors that do not exist. */
function structuralProblems(source: SourceText, doc: Document.Parsed): Diagnostic[] {
  const out: Diagnostic[] = [];
  visit(doc, {
    Map(_key, map) {
      const firstByKey = new Map<string, { start: number; end: number }>();
      for (const pair of map.items) {
        const key = pair.key;
        if (!isScalar(key) || key.range === undefined || key.range === null) continue;
        const name = String(key.value);
        const here = { start: key.range[0], end: key.range[1] };
        const earlier = firstByKey.get(name);
        if (earlier === undefined) {
          firstByKey.set(name, here);
          continue;
        }
        const related: RelatedInformation[] = [
          { message: `first \`${name}\` is here`, range: rangeAt(source, earlier.start, earlier.end) },
        ];
        out.push({
          severity: "error",
          code: "campaign.duplicate-key",
          message: `key \`${name}\` appears twice in the same mapping`,
          range: rangeAt(source, here.start, here.end),
          hint: "remove one of them: YAML keeps only the last, silently",
          related,
        });
      }
    },
    Alias(_key, alias) {
      if (alias.resolve(doc) !== undefined) return;
      const range = alias.range ?? [0, 0];
      out.push({
        severity: "error",
        code: "campaign.yaml-alias",
        message: `alias *${alias.source} refers to an anchor &${alias.source} that is not defined before it`,
        range: rangeAt(source, range[0], range[1]),
      });
    },
  });
  return out;
}
