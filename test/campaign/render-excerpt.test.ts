/**
 * The source excerpt under a diagnostic: the right line whatever the line breaks (LF, CRLF, a lone
 * CR, as the loader reads them), and rendering stays linear (one line index per file).
 */
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { renderDiagnosticsText } from "../../src/report/diagnostics-text.js";

function at(line: number, column: number, width = 4): Diagnostic {
  return {
    severity: "error",
    code: "campaign.unknown-key",
    message: "unknown key",
    range: {
      file: "c.yaml",
      start: { line, column, offset: 0 },
      end: { line, column: column + width, offset: 0 },
    },
  };
}

const render = (text: string, ds: Diagnostic[]) =>
  renderDiagnosticsText(ds, { sources: new Map([["c.yaml", text]]), color: false });

describe("source excerpts", () => {
  it.each([
    ["LF", "version: 1\nprojects:\n  a:\n    nmae: x\n"],
    ["CRLF", "version: 1\r\nprojects:\r\n  a:\r\n    nmae: x\r\n"],
    ["lone CR", "version: 1\rprojects:\r  a:\r    nmae: x\r"],
    ["no final break", "version: 1\nprojects:\n  a:\n    nmae: x"],
  ])("%s", (_name, text) => {
    expect(render(text, [at(4, 5)])).toBe(
      "c.yaml:4:5: error[campaign.unknown-key]: unknown key\n  4 |     nmae: x\n    |     ^^^^\n",
    );
  });

  it("a line past the end has no excerpt", () => {
    expect(render("version: 1\n", [at(9, 1)])).toBe("c.yaml:9:1: error[campaign.unknown-key]: unknown key\n");
  });

  // How quickly (no rescan per diagnostic) is measured by bench/robustness.mjs, not here.
  it("renders 20,000 diagnostics in a 20,000-line file", () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `    key${i}: value`).join("\n");
    const ds = Array.from({ length: 20_000 }, (_, i) => at(20_000 - i, 5));
    const out = render(text, ds);
    expect(out).toContain("  20000 |     key19999: value\n");
  });
});
