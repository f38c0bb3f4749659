/**
 * An API key written in a campaign file is never shown back, by the language server nor by
 * validate: hovers, code actions and published findings mask it (as validate's source excerpt
 * does, `*` for each character), and so do validate's messages, hints and notes in text and JSON.
 * Before, a hover on a message holding a key quoted it in each rendered text, a hover on a name
 * quoted the name, and a finding that quotes what is written (an unknown merge tag, an unknown
 * key) printed it in full, in the editor and in CI's logs.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { CodeActionRequest, DidOpenTextDocumentNotification, HoverRequest } from "vscode-languageserver/node";
import { runCli } from "../../helpers/run-cli.js";
import { documentOf } from "../../helpers/schemas.js";
import { NOW, start, stop, tempFolder } from "../lsp-session.js";

/** Key-shaped, not keys (the contract's live prefix and twelve characters). */
const key = (n: string) => ["pc", "live", `abcdefgh${n}`].join("_");
const TEXT = `version: 1
organization: Riverside Democrats
fields: [polling_place]
defaults:
  channel: 10dlc
  brand: Riverside ${key("0012")}
  campaign: GOTV 2026
  phone_numbers: ["+15035550101"]
  contact_lists: [Ward 3 Likely Voters]
  test:
    contacts:
      - phone: "+15035550150"
projects:
  p-1:
    id: 9b000001-0000-4000-8000-000000000001
    message: "Hi {{${key("0034")}}}, Ward 3 votes Tuesday ${key("0056")}. Reply STOP to opt out"
    state: scheduled
    ${key("0078")}: 1
    schedule:
      at: "2026-12-07T20:00:00-06:00"
      timezone: America/Chicago
`;

test("hovers, code actions and findings never show a key written in the file", async () => {
  const folder = tempFolder();
  const path = join(folder, "gotv.yaml");
  const uri = pathToFileURL(path).href;
  writeFileSync(path, TEXT);
  const session = await start(folder);
  await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "yaml", version: 1, text: TEXT },
  });
  const published = await session.published(uri, 1);
  const codes = published.diagnostics.map((d) => d.code);
  expect(codes).toEqual(
    expect.arrayContaining(["campaign.api-key-in-file", "message.unknown-tag", "campaign.unknown-key"]),
  );
  const shown: string[] = [JSON.stringify(published)];
  let hovers = 0;
  for (const [line, written] of TEXT.split("\n").entries()) {
    for (let character = 0; character < written.length; character += 2) {
      const hover = await session.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri },
        position: { line, character },
      });
      if (hover !== null) hovers += 1;
      shown.push(JSON.stringify(hover));
    }
  }
  expect(hovers).toBeGreaterThan(0);
  const actions = await session.connection.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 30, character: 0 } },
    context: { diagnostics: [] },
  });
  shown.push(JSON.stringify((actions ?? []).map((a) => ("title" in a ? a.title : a))));
  const all = shown.join("\n");
  expect(all).not.toContain("live_abcdefgh");
  expect(all).toContain("Ward 3 votes Tuesday ****");
  expect(await stop(session)).toBe(0);
  expect(session.stderr()).toBe("");
});

test("validate's messages, hints and notes never show a key written in the file", async () => {
  const folder = tempFolder();
  const path = join(folder, "gotv.yaml");
  writeFileSync(path, TEXT);
  const json = await runCli(["validate", path, "--json", "--now", NOW]);
  const document = documentOf("validate-result", json.stdout) as { diagnostics: { code: string }[] };
  expect(document.diagnostics.map((d) => d.code)).toEqual(
    expect.arrayContaining(["campaign.api-key-in-file", "message.unknown-tag", "campaign.unknown-key"]),
  );
  const text = await runCli(["validate", path, "--now", NOW]);
  expect(text.stdout + text.stderr).toContain("message.unknown-tag");
  expect(`${json.stdout}${json.stderr}${text.stdout}${text.stderr}`).not.toContain("live_abcdefgh");
});
