/**
 * What the language server sends for a publish, made cheaply (issue 36): the connection's encoder
 * (cli/lsp/publish-encoder.ts) writes exactly `JSON.stringify` of every message in ASCII (every character past U+007F as its `\uXXXX` escape), a
 * `publishDiagnostics` list put together from bytes kept per diagnostic object; and each finding's
 * LSP form (cli/lsp/lsp-forms.ts) is made once and reused for the same finding, or for a copy moved
 * without changing a line or a column (cli/lsp/incremental-check.ts), but made again when a line moved.
 */
import { describe, expect, test } from "vitest";
import type { Message } from "vscode-languageserver/node";
import { moveDiagnostic } from "../../cli/lsp/incremental-check.js";
import { toLspDiagnostic } from "../../cli/lsp/lsp-diagnostic.js";
import { lspForms } from "../../cli/lsp/lsp-forms.js";
import { encodeMessage, messageEncoder } from "../../cli/lsp/publish-encoder.js";
import type { Diagnostic, SourceRange } from "../../src/diagnostics/diagnostic.js";

const FILE = "/w/c.yaml";

function at(line: number, column: number, offset: number, file = FILE): SourceRange {
  return { file, start: { line, column, offset }, end: { line, column: column + 3, offset: offset + 3 } };
}

const finding = (message: string, range: SourceRange): Diagnostic => ({
  severity: "warning",
  code: "lint.segment-growth",
  message,
  range,
  hint: "shorten it — or not ☕ 😀",
});

/** `JSON.stringify(m)` with every character past U+007F escaped: the same JSON value, in ASCII. */
const asciiJson = (m: unknown): Buffer =>
  Buffer.from(
    JSON.stringify(m).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    ),
    "latin1",
  );

const publish = (diagnostics: unknown[], extra: Record<string, unknown> = {}): Message =>
  ({
    jsonrpc: "2.0",
    method: "textDocument/publishDiagnostics",
    params: { uri: "file:///w/c%20d.yaml", version: 3, diagnostics, ...extra },
  }) as Message;

describe("the connection's encoder", () => {
  const lsp = [
    toLspDiagnostic(finding('a "quoted" \\ message\nwith a line', at(2, 4, 20)), FILE),
    toLspDiagnostic(finding("Café Olé 🗳️ \u0000 \u2028", at(3, 1, 40)), FILE),
    toLspDiagnostic(finding("about another file", at(1, 1, 0, "/w/policy.yaml")), FILE),
  ];
  const messages: Message[] = [
    publish(lsp),
    publish([]),
    publish([lsp[1], lsp[0], lsp[1]]),
    publish(lsp, { extra: "\u0000diagnostics\u0000" }),
    {
      jsonrpc: "2.0",
      id: 7,
      method: "textDocument/publishDiagnostics",
      params: { diagnostics: lsp },
    } as Message,
    {
      jsonrpc: "2.0",
      method: "textDocument/publishDiagnostics",
      params: { diagnostics: [1, "x"] },
    } as Message,
    { jsonrpc: "2.0", id: 1, result: { capabilities: { hoverProvider: true } } } as Message,
    { jsonrpc: "2.0", method: "window/showMessage", params: { type: 3, message: "ünïcödé" } } as Message,
  ];

  test("writes every message as JSON.stringify in ASCII, byte for byte", async () => {
    for (const m of messages) {
      const expected = asciiJson(m);
      expect(encodeMessage(m).equals(expected)).toBe(true);
      const viaLibrary = await messageEncoder.encode(m, { charset: "utf-8" });
      expect(Buffer.from(viaLibrary).equals(expected)).toBe(true);
    }
  });

  test("a list published again with one diagnostic changed is the new list's JSON", () => {
    const first = encodeMessage(publish(lsp));
    const changed = [lsp[0], toLspDiagnostic(finding("changed", at(3, 1, 40)), FILE), lsp[2]];
    const second = encodeMessage(publish(changed));
    expect(JSON.parse(second.toString("utf8")).params.diagnostics).toEqual(changed);
    expect(second.equals(asciiJson(publish(changed)))).toBe(true);
    expect(first.equals(second)).toBe(false);
  });
});

describe("each finding's LSP form", () => {
  test("is made once for the same finding and the same file", () => {
    const forms = lspForms();
    const d = finding("one", at(2, 4, 20));
    const lsp = forms(d, FILE);
    expect(lsp).toEqual(toLspDiagnostic(d, FILE));
    expect(forms(d, FILE)).toBe(lsp);
    // On another document the finding is about another file: made again, placed at the start.
    expect(forms(d, "/w/other.yaml")).toEqual(toLspDiagnostic(d, "/w/other.yaml"));
  });

  test("is reused for a copy moved by offsets only, and made again when a line moved", () => {
    const forms = lspForms();
    const d: Diagnostic = {
      ...finding("two", at(5, 2, 100)),
      related: [{ message: "here", range: at(6, 1, 120) }],
    };
    const lsp = forms(d, FILE);
    const byOffset = moveDiagnostic(d, (r) => ({
      file: r.file,
      start: { ...r.start, offset: r.start.offset + 7 },
      end: { ...r.end, offset: r.end.offset + 7 },
    }));
    expect(byOffset).not.toBe(d);
    expect(forms(byOffset as Diagnostic, FILE)).toBe(lsp);
    const byLine = moveDiagnostic(d, (r) => ({
      file: r.file,
      start: { ...r.start, line: r.start.line + 1, offset: r.start.offset + 7 },
      end: { ...r.end, line: r.end.line + 1, offset: r.end.offset + 7 },
    })) as Diagnostic;
    const moved = forms(byLine, FILE);
    expect(moved).not.toBe(lsp);
    expect(moved).toEqual(toLspDiagnostic(byLine, FILE));
    expect(moved.range.start.line).toBe(5);
    // A related place alone moving a line is a change too.
    const relatedOnly = moveDiagnostic(d, (r) =>
      r.start.line === 6 ? { ...r, start: { ...r.start, line: 7 }, end: { ...r.end, line: 7 } } : r,
    ) as Diagnostic;
    expect(forms(relatedOnly, FILE)).toEqual(toLspDiagnostic(relatedOnly, FILE));
    expect(forms(relatedOnly, FILE)).not.toBe(lsp);
  });
});
