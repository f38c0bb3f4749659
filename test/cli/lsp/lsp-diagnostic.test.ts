/**
 * Our Diagnostic as LSP's (cli/lsp/lsp-diagnostic.ts): 1-based line/column to 0-based
 * line/character (both UTF-16), severities, the hint after the message, related places, and a
 * finding about another file (a policy file) kept at the document's start with its place named.
 */
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { TextDocument } from "vscode-languageserver-textdocument";
import { toLspDiagnostic } from "../../../cli/lsp/lsp-diagnostic.js";
import type { Diagnostic, SourceRange } from "../../../src/diagnostics/diagnostic.js";

const FILE = "/w/c.yaml";

function range(file: string, line: number, column: number, offset: number, length: number): SourceRange {
  return {
    file,
    start: { line, column, offset },
    end: { line, column: column + length, offset: offset + length },
  };
}

describe("toLspDiagnostic", () => {
  test("a range after a character outside the BMP keeps UTF-16 units, as TextDocument counts them", () => {
    const text = 'version: 1\nm: "😀 {{frist}}"\n';
    const offset = text.indexOf("frist");
    // Line 2: `m: "` is 4 units, the emoji 2, the space 1, `{{` 2: `frist` starts at column 10.
    const d: Diagnostic = {
      severity: "error",
      code: "message.unknown-tag",
      message: "merge tag {{frist}} names an unknown field",
      range: range(FILE, 2, 10, offset, 5),
      hint: "did you mean {{first_name}}?",
    };
    const lsp = toLspDiagnostic(d, FILE);
    const document = TextDocument.create("file:///w/c.yaml", "yaml", 1, text);
    expect(lsp.range.start).toEqual(document.positionAt(offset));
    expect(lsp.range.end).toEqual(document.positionAt(offset + 5));
    expect(lsp).toEqual({
      range: { start: { line: 1, character: 9 }, end: { line: 1, character: 14 } },
      severity: 1,
      code: "message.unknown-tag",
      source: "campaignctl",
      message: "merge tag {{frist}} names an unknown field\nhint: did you mean {{first_name}}?",
    });
  });

  test("severities map to Error, Warning and Information; related places keep their files", () => {
    const base = {
      code: "campaign.duplicate-address",
      message: "m",
      range: range(FILE, 3, 3, 20, 4),
    } as const;
    expect(toLspDiagnostic({ ...base, severity: "warning" }, FILE).severity).toBe(2);
    expect(toLspDiagnostic({ ...base, severity: "info" }, FILE).severity).toBe(3);
    const related = toLspDiagnostic(
      {
        ...base,
        severity: "error",
        related: [{ message: "first declared here", range: range("/w/b.yaml", 5, 3, 40, 4) }],
      },
      FILE,
    ).relatedInformation;
    expect(related).toEqual([
      {
        message: "first declared here",
        location: {
          uri: pathToFileURL("/w/b.yaml").href,
          range: { start: { line: 4, character: 2 }, end: { line: 4, character: 6 } },
        },
      },
    ]);
  });

  test("a finding about another file, or with no range, sits at the start and names its place", () => {
    const elsewhere = toLspDiagnostic(
      {
        severity: "error",
        code: "policy.file-invalid",
        message: "bad rule",
        range: range("/w/campaignctl.policy.yaml", 4, 3, 30, 5),
      },
      FILE,
    );
    expect(elsewhere.range).toEqual({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
    expect(elsewhere.message).toBe("/w/campaignctl.policy.yaml:4:3: bad rule");
    expect(elsewhere.relatedInformation?.[0]?.location.uri).toBe(
      pathToFileURL("/w/campaignctl.policy.yaml").href,
    );
    const nowhere = toLspDiagnostic(
      { severity: "error", code: "policy.required", message: "no policy" },
      FILE,
    );
    expect(nowhere.range.start).toEqual({ line: 0, character: 0 });
    expect(nowhere.message).toBe("no policy");
  });
});
