/**
 * A file holding more API keys than are reported one by one (src/campaign/api-key-in-file.ts: 20,
 * then one error counting the rest) is checked whole after an edit of one entry: its findings are
 * not the sum of each entry's (a key removed from one entry brings the 21st into view), so the
 * small files of cli/lsp/incremental-check.ts cannot give them. Published equals validate --json.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import {
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
} from "vscode-languageserver/node";
import { essentials, start, stop, tempFolder, validateAsLsp } from "../lsp-session.js";

const HEAD = `version: 1
organization: Riverside Democrats
defaults:
  channel: 10dlc
  brand: Riverside Democrats
  campaign: GOTV 2026
  phone_numbers: ["+15035550101"]
  contact_lists: [Ward 3 Likely Voters]
  test:
    contacts:
      - phone: "+15035550150"
projects:
`;
/** Key-shaped, not a key. */
const key = (n: number) => ["pc", "live", `k${String(n).padStart(11, "0")}`].join("_");
const project = (n: number) => `  p-${n}:
    id: 9b${String(n).padStart(6, "0")}-0000-4000-8000-${String(n).padStart(12, "0")}
    # ${key(n)}
    message: "Hi, Ward ${n} votes Tuesday. Reply STOP to opt out"
    state: draft
`;

test("an edit of one entry of a file with more keys than shown: published equals validate's", async () => {
  const folder = tempFolder();
  const path = join(folder, "gotv.yaml");
  const uri = pathToFileURL(path).href;
  let text = HEAD + Array.from({ length: 25 }, (_, i) => project(i + 1)).join("");
  writeFileSync(path, text);
  const session = await start(folder);
  await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "yaml", version: 1, text },
  });
  expect(essentials((await session.published(uri, 1)).diagnostics)).toEqual(await validateAsLsp(path, text));
  const edits = [
    (t: string) => t.replace(`    # ${key(2)}\n`, ""),
    (t: string) => t.replace("Ward 5 votes", "Ward 5 votes on"),
    (t: string) => t.replace("Ward 3 votes", `Ward 3 ${key(99)} votes`),
  ];
  for (const [index, edit] of edits.entries()) {
    text = edit(text);
    writeFileSync(path, text);
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: index + 2 },
      contentChanges: [{ text }],
    });
    const published = await session.published(uri, index + 2);
    expect(essentials(published.diagnostics), `after edit ${index}`).toEqual(await validateAsLsp(path, text));
  }
  expect(await stop(session)).toBe(0);
});
