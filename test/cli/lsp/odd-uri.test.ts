/**
 * A document whose `file:` URI names no local path (another host's share, an encoded `/`, a NUL)
 * is not checked, as an untitled buffer is not, and never stops the server: the built binary keeps
 * publishing validate's findings for the other documents, across edits, and exits cleanly.
 * Before, opening such a document threw from Node's `fileURLToPath` in the debounced check of
 * every open document and the server process died (exit 1), leaving every file unchecked.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import {
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
} from "vscode-languageserver/node";
import { essentials, startProcess, stop, tempFolder, validateAsLsp } from "../lsp-session.js";

const TEXT = `version: 1
projects:
  a:
    id: p1
    message: "Hi {{frist_name}}, vote Tuesday"
    state: draft
`;
const ODD = ["file://fileserver/share/a.yaml", "file:///tmp/x%2Fy.yaml", "file:///tmp/nul%00.yaml"];

test("a document of an odd file: URI is left unchecked and the others are still checked", async () => {
  const folder = tempFolder();
  const path = join(folder, "a.yaml");
  writeFileSync(path, TEXT);
  const uri = pathToFileURL(path).href;
  const session = await startProcess(folder);
  for (const odd of ODD) {
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: odd, languageId: "yaml", version: 1, text: TEXT },
    });
  }
  await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "yaml", version: 1, text: TEXT },
  });
  // The server dying is the failure this test is about: said at once, with its stderr.
  const died = session.exited.then((code) => {
    throw new Error(`the server exited (${code}): ${session.stderr()}`);
  });
  const opened = await Promise.race([session.published(uri, 1), died]);
  expect(essentials(opened.diagnostics)).toEqual(await validateAsLsp(path, TEXT));
  expect(opened.diagnostics.map((d) => d.code)).toContain("message.unknown-tag");
  const hover = await session.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri: ODD[0] as string },
    position: { line: 4, character: 16 },
  });
  expect(hover).toBeNull();

  const fixed = TEXT.replace("frist_name", "first_name");
  writeFileSync(path, fixed);
  await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: fixed }],
  });
  const changed = await Promise.race([session.published(uri, 2), died]);
  expect(essentials(changed.diagnostics)).toEqual(await validateAsLsp(path, fixed, path));
  expect(changed.diagnostics.map((d) => d.code)).not.toContain("message.unknown-tag");
  for (const odd of ODD) expect(session.drain(odd)).toEqual([]);
  expect(await stop(session)).toBe(0);
  expect(session.stderr()).toBe("");
});
