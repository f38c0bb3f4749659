/**
 * Issue 36, the 10,000-project edit: what the server and the editor do less of per publish, with
 * the same result. The encoder (cli/lsp/publish-encoder.ts) writes ASCII, from bytes kept per
 * diagnostic, and what the client parses is the same message at every publish of a series; the own
 * check's findings are kept in validate's order and an edit's list is merged from its parts
 * (cli/lsp/sorted-findings.ts), the same list a stable sort gives.
 */
import { describe, expect, test } from "vitest";
import type { Message } from "vscode-languageserver/node";
import { encodeMessage } from "../../cli/lsp/publish-encoder.js";
import { inValidateOrder, mergeInOrder } from "../../cli/lsp/sorted-findings.js";
import { compareDiagnostics, type Diagnostic } from "../../src/diagnostics/diagnostic.js";

/** A small deterministic generator (no clock, no Math.random). */
function seeded(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
}

const publish = (uri: string, version: number, diagnostics: object[]): Message =>
  ({
    jsonrpc: "2.0",
    method: "textDocument/publishDiagnostics",
    params: { uri, version, diagnostics },
  }) as Message;

describe("a document's publishes, one after another", () => {
  const objects = Array.from({ length: 40 }, (_, i) => ({
    range: { start: { line: i, character: 0 }, end: { line: i, character: 3 } },
    severity: 1 + (i % 3),
    message: `p-${i}: Đặng ${"é".repeat(i % 4)} ☕ 😀 "q" \\ \n`,
  }));

  test("are each exactly that list's JSON, in ASCII, whatever they share with the last one", () => {
    const rnd = seeded(36);
    const lists = new Map<string, object[]>();
    for (let step = 0; step < 600; step++) {
      const uri = `file:///w/doc-${rnd(3)}.yaml`;
      const last = lists.get(uri) ?? [];
      // Mostly an edit's change: the last list with a few diagnostics replaced, added or dropped.
      const list = [...last];
      for (let k = rnd(4); k > 0; k--) {
        const at = rnd(list.length + 1);
        const kind = rnd(3);
        if (kind === 0) list.splice(at, 1);
        else if (kind === 1) list.splice(at, 0, objects[rnd(objects.length)] as object);
        else list[at] = objects[rnd(objects.length)] as object;
      }
      if (rnd(20) === 0) list.length = Math.min(list.length, rnd(3));
      lists.set(uri, list);
      const message = publish(uri, step, list);
      const bytes = encodeMessage(message);
      expect(
        bytes.every((b) => b < 0x80),
        `step ${step}`,
      ).toBe(true);
      expect(JSON.parse(bytes.toString("utf8")), `step ${step}`).toEqual(message);
    }
  });

  test("a list with one diagnostic changed or dropped reads back as the new list", () => {
    const uri = "file:///w/big.yaml";
    const first = objects.slice(0, 30);
    encodeMessage(publish(uri, 1, first));
    const changed = { ...(objects[35] as object) };
    const second = [...first.slice(0, 14), changed, ...first.slice(15)];
    const bytes = encodeMessage(publish(uri, 2, second));
    expect(JSON.parse(bytes.toString("utf8")).params.diagnostics).toEqual(second);
    const third = [...second.slice(0, 5), ...second.slice(6)];
    expect(JSON.parse(encodeMessage(publish(uri, 3, third)).toString("utf8")).params.diagnostics).toEqual(
      third,
    );
  });
});

describe("findings merged in validate's order", () => {
  const FILES = ["/w/a.yaml", "/w/b.yaml"];
  const CODES = ["lint.quiet-hours", "lint.segment-growth", "lint.after-sends-first"];
  const finding = (rnd: (n: number) => number, tag: string): Diagnostic => ({
    severity: "warning",
    code: CODES[rnd(CODES.length)] as Diagnostic["code"],
    message: tag,
    ...(rnd(10) === 0
      ? {}
      : {
          range: {
            file: FILES[rnd(FILES.length)] as string,
            start: { line: 1, column: 1, offset: rnd(12) },
            end: { line: 1, column: 2, offset: 20 },
          },
        }),
  });

  test("are what a stable sort of the parts one after the other gives, ties in the parts' order", () => {
    const rnd = seeded(7);
    for (let round = 0; round < 300; round++) {
      const parts = Array.from({ length: 1 + rnd(4) }, (_, p) =>
        Array.from({ length: rnd(p === 1 ? 40 : 6) }, (_, i) => finding(rnd, `${p}.${i}`)),
      );
      const expected = parts.flat().sort(compareDiagnostics);
      const merged = parts.reduce<readonly Diagnostic[]>(
        (m, part) => mergeInOrder(m, inValidateOrder(part)),
        [],
      );
      expect(merged.map((d) => d.message)).toEqual(expected.map((d) => d.message));
    }
  });

  test("a list already in order is the same array; one out of order a sorted copy", () => {
    const rnd = seeded(11);
    const list = Array.from({ length: 20 }, (_, i) => finding(rnd, `${i}`)).sort(compareDiagnostics);
    expect(inValidateOrder(list)).toBe(list);
    const reversed = [...list].reverse();
    const sorted = inValidateOrder(reversed);
    expect(sorted).not.toBe(reversed);
    expect(sorted).toEqual([...reversed].sort(compareDiagnostics));
  });
});
