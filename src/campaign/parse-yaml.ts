/**
 * Parses one campaign file's text into a YAML document with source positions, and reports every
 * YAML-level problem: syntax (all of them, not just the first), duplicate keys, unknown aliases,
 * several documents in one file, empty files. A file that is no campaign file at all (a Markdown
 * report, a saved plan; see `file-kind.ts`) gets one diagnostic instead, and tabs used as
 * indentation one diagnostic instead of their cascade (see `yaml-tabs.ts`). Pure.
 */
import { type Document, LineCounter, parseAllDocuments, type YAMLMap } from "yaml";
import type { Diagnostic, Severity } from "../diagnostics/diagnostic.js";
import { apiKeysInFile } from "./api-key-in-file.js";
import { describeForeign, type FileKind, fileKindOf } from "./file-kind.js";
import type { CampaignFile } from "./model.js";
import { fileStart, rangeAt, type SourceText } from "./source-range.js";
import { campaignCodeOfYamlError, yamlHint, yamlMessage } from "./yaml-errors.js";
import { misindentedKeys } from "./yaml-indent.js";
import { explainedBySlips, yamlSlips } from "./yaml-slips.js";
import { collapseTabCascade, type YamlProblem } from "./yaml-tabs.js";
import { walkDocument } from "./yaml-walk.js";

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
  /**
   * The document's data as `doc.toJS()` builds it, when `usable` and the walk for duplicate keys
   * could build it on the way (yaml-walk.ts); absent: build it with `toJS`.
   */
  readonly data?: { readonly value: unknown };
  /**
   * The maps of `doc` with a repeated key (yaml-walk.ts `mapsWithRepeatedKeys`); absent when the
   * walk did not run (tabs as indentation): then any map may have one.
   */
  readonly mapsWithRepeatedKeys?: readonly YAMLMap<unknown, unknown>[];
  readonly diagnostics: readonly Diagnostic[];
}

export function parseCampaignFile(file: CampaignFile): ParsedFile {
  const lineCounter = new LineCounter();
  // YAML 1.2 reads a lone CR as a line break, the `yaml` library does not: replace it by LF (same
  // length, so offsets into the file stay true) and say so.
  const loneCr = file.text.indexOf("\r") < 0 ? -1 : file.text.search(LONE_CR);
  const text = loneCr < 0 ? file.text : file.text.replace(LONE_CR_ALL, "\n");
  const source: SourceText = { file: file.path, text, lineCounter };
  const kind = fileKindOf(file.path, text);
  if (kind.kind !== "campaign") {
    indexLines(text, lineCounter);
    return { source, usable: false, diagnostics: [notCampaignFile(file.path, kind)] };
  }
  // `uniqueKeys: false`: the library's own duplicate-key check is quadratic in a map's size; ours
  // (yaml-walk.ts) is linear and reports both places.
  const docs = parseAllDocuments(text, {
    lineCounter,
    prettyErrors: false,
    uniqueKeys: false,
    // The library warns on the console (a map or list as a key, in toJS): our findings are the
    // diagnostics, never a stray process warning on stderr.
    logLevel: "error",
  });
  const list = Array.isArray(docs) ? docs : [];
  const diagnostics: Diagnostic[] = [];
  if (loneCr >= 0) diagnostics.push(crLineEndings(source, loneCr));
  diagnostics.push(...apiKeysInFile(source));
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
  // A tab used as indentation: one error, and only the errors that are not its cascade.
  const tabs = collapseTabCascade(source, yamlErrors);
  if (tabs !== undefined) diagnostics.push(tabs.diagnostic);
  const afterTabs = tabs === undefined ? yamlErrors : tabs.errors;
  // An unclosed quote, a list item without its dash, a message written as a list: one error each.
  const slips = yamlSlips(source, afterTabs);
  diagnostics.push(...slips.map((s) => s.diagnostic));
  const explained = explainedBySlips(slips);
  const otherErrors = afterTabs.filter((e) => !explained(e));
  const misindented = misindentedKeys(source, otherErrors);
  diagnostics.push(...misindented.map((m) => m.diagnostic));
  pushYamlProblems(
    source,
    otherErrors.filter((e) => !misindented.some((m) => m.explains(e))),
    "error",
    diagnostics,
  );
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
  // Duplicate keys and aliases of a document misread around a tab are not the file's: they wait.
  const walked = tabs === undefined ? walkDocument(source, first) : undefined;
  const structural = walked?.problems ?? [];
  diagnostics.push(...structural);
  const usable = yamlErrors.length === 0 && !structural.some((d) => UNREADABLE.has(d.code));
  const data = usable ? walked?.data : undefined;
  return {
    source,
    doc: first,
    usable,
    diagnostics,
    ...(data === undefined ? {} : { data }),
    ...(walked === undefined ? {} : { mapsWithRepeatedKeys: walked.mapsWithRepeatedKeys }),
  };
}

/**
 * The walk's findings after which the file's data is not what it says (yaml-walk.ts): the file is
 * not read further.
 */
const UNREADABLE: ReadonlySet<string> = new Set([
  "campaign.yaml-alias",
  "campaign.yaml-key",
  "campaign.yaml-merge-key",
  "campaign.yaml-tag",
]);

const LONE_CR = /\r(?!\n)/;
const LONE_CR_ALL = /\r(?!\n)/g;

function crLineEndings(source: SourceText, at: number): Diagnostic {
  return {
    severity: "warning",
    code: "campaign.cr-line-endings",
    message: "file has line breaks written as a lone CR (old Mac style): they are read as line breaks",
    range: rangeAt(source, at, at + 1),
    hint: "save the file with LF (or CRLF) line endings; a CR inside a message would become a line break",
  };
}

/** Fills `lineCounter` for a text that is not parsed, so that offsets still map to positions. */
function indexLines(text: string, lineCounter: LineCounter): void {
  lineCounter.addNewLine(0);
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lineCounter.addNewLine(at + 1);
}

/** One diagnostic for a file that is no campaign file; nothing of it is read. */
function notCampaignFile(path: string, kind: Exclude<FileKind, { kind: "campaign" }>): Diagnostic {
  switch (kind.kind) {
    case "plan":
      return {
        severity: "error",
        code: "campaign.not-campaign-file",
        message: "this is a saved plan (JSON with `format_version`), not a campaign file",
        range: fileStart(path),
        hint: `apply a saved plan with \`campaignctl apply ${path}\`; plan, validate and preview read campaign files (YAML that starts with \`version: 1\`)`,
      };
    case "foreign":
      return {
        severity: "error",
        code: "campaign.not-campaign-file",
        message: `not a campaign file: it looks like ${describeForeign(kind.format)}`,
        range: fileStart(path),
        hint: "pass campaign files (YAML that starts with `version: 1`) or the directories that hold them",
      };
  }
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
  problems: readonly YamlProblem[],
  severity: Severity,
  out: Diagnostic[],
): void {
  for (const problem of problems.slice(0, MAX_YAML_ERRORS_PER_FILE)) {
    const hint = yamlHint(problem.code);
    out.push({
      severity,
      code: campaignCodeOfYamlError(problem.code),
      message: yamlMessage(problem.code) ?? firstLine(problem.message),
      range: rangeAt(source, problem.pos[0], problem.pos[1]),
      ...(hint === undefined ? {} : { hint }),
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
