/**
 * The language server decodes an editor's text without the round trip through bytes and without
 * hashing it (src/campaign/decode.ts `decodeEditorText`): the same file and findings as decoding
 * the text's UTF-8 bytes, but for the empty hash.
 */
import { expect, test } from "vitest";
import { decodeCampaignFile, decodeEditorText } from "../../src/campaign/decode.js";

test.each([
  ["plain", "version: 1\nprojects:\n  a: {}\n"],
  ["accents and emoji", "message: Votación 🗳️\n"],
  ["a byte order mark", "\uFEFFversion: 1\n"],
  ["a lone surrogate", "message: a\uD800b\n"],
  ["a trailing lone surrogate", "message: a\uDC00"],
  ["a NUL", "version: 1\0\n"],
])("%s: as its bytes decode", (_, text) => {
  const path = "/w/a.yaml";
  const fromBytes = decodeCampaignFile(path, Buffer.from(text, "utf8"));
  const fromText = decodeEditorText(path, text);
  expect(fromText.diagnostics).toEqual(fromBytes.diagnostics);
  expect(fromText.file?.text).toEqual(fromBytes.file?.text);
  expect([fromBytes.file?.sha256, ""]).toContain(fromText.file?.sha256);
});
