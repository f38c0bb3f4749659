/**
 * How the terminal and Markdown list the template instances a finding is for (issue 33): two or
 * more marked places are one note (one sub-item) by file, where the first of them was, wrapped
 * before column 100 in the terminal; a lone instance keeps its note with its full message; other
 * related places keep theirs, in order.
 */
import { describe, expect, it } from "vitest";
import type { Diagnostic, RelatedInformation, SourceRange } from "../../src/diagnostics/diagnostic.js";
import { renderDiagnosticsMarkdown } from "../../src/report/diagnostics-markdown.js";
import { renderDiagnosticsText } from "../../src/report/diagnostics-text.js";

const range = (file: string, line: number, column = 7): SourceRange => ({
  file,
  start: { line, column, offset: line * 10 },
  end: { line, column: column + 3, offset: line * 10 + 3 },
});

const instance = (address: string, line: number, file = "c.yaml"): RelatedInformation => ({
  message: `for instance \`${address}\` (${address} Democrats, es)`,
  range: range(file, line),
  instance: { address, template: "gotv" },
});

function finding(related: readonly RelatedInformation[]): Diagnostic {
  return {
    severity: "warning",
    code: "lint.non-gsm-character",
    message: "template `gotv` (3 instances): the message holds í (U+00ED)",
    range: {
      file: "c.yaml",
      start: { line: 2, column: 11, offset: 21 },
      end: { line: 2, column: 12, offset: 22 },
    },
    hint: "write i instead of í",
    related,
  };
}

const text = (d: Diagnostic) =>
  renderDiagnosticsText([d], {
    sources: new Map([["c.yaml", "version: 1\n  es: holá aquí\n"]]),
    color: false,
  });

describe("the instances of a finding in the terminal", () => {
  it("are one note, in its place among the others", () => {
    const before = { message: "the en variant", range: range("c.yaml", 1) };
    const after = { message: "the policy's rule", range: range("p.yaml", 3) };
    expect(
      text(finding([before, instance("adams", 4), instance("boone", 8), after, instance("clay", 12)])),
    ).toBe(
      [
        "c.yaml:2:11: warning[lint.non-gsm-character]: template `gotv` (3 instances): the message holds í (U+00ED)",
        "  2 |   es: holá aquí",
        "    |           ^",
        "  note: the en variant at c.yaml:1:7",
        "  note: for 3 instances in c.yaml: adams, boone, clay",
        "  note: the policy's rule at p.yaml:3:7",
        "  hint: write i instead of í",
        "",
      ].join("\n"),
    );
  });

  it("wrap between addresses before column 100, one note per file", () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      instance(`county-${String(i + 1).padStart(2, "0")}`, 4 + i),
    );
    const out = text(finding([...many, instance("other", 2, "d.yaml")])).split("\n");
    const notes = out.slice(3, -2);
    expect(notes[0]).toBe(
      "  note: for 31 instances in c.yaml: county-01, county-02, county-03, county-04, county-05,",
    );
    expect(notes.at(-1)).toBe("  note: for 31 instances in d.yaml: other");
    for (const line of notes) expect(line.length).toBeLessThanOrEqual(100);
    expect(notes.slice(1, -1).every((l) => l.startsWith("        county-"))).toBe(true);
    expect(notes.join(" ").match(/county-\d\d/g)?.length).toBe(30);
  });

  it("a lone instance keeps its own note", () => {
    expect(text(finding([instance("adams", 4)]))).toContain(
      "  note: for instance `adams` (adams Democrats, es) at c.yaml:4:7\n",
    );
  });
});

describe("the instances of a finding in Markdown", () => {
  it("are one sub-item by file", () => {
    expect(renderDiagnosticsMarkdown([finding([instance("adams", 4), instance("boone", 8)])])).toBe(
      [
        "- **warning** `lint.non-gsm-character` at `c.yaml:2:11`: template \\`gotv\\` (3 instances): the message holds í (U+00ED)",
        "  - for 2 instances in `c.yaml`: `adams`, `boone`",
        "  - hint: write i instead of í",
      ].join("\n"),
    );
  });
});
