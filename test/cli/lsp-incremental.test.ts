/**
 * Issue 27 item 7 through the server as an editor drives it: along a series of edits of a campaign
 * file (a merge tag misspelt, lines inserted above a project, a message edited, the YAML broken and
 * fixed, lines deleted), each of which the server checks incrementally where it can
 * (cli/lsp/incremental-check.ts), the published diagnostics equal `validate FILE --json`'s for the
 * text (codes, ranges, severities). test/cli/lsp/incremental.test.ts compares every finding in
 * full, in-process, on a longer series.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import {
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
} from "vscode-languageserver/node";
import { essentials, start, stop, tempFolder, validateAsLsp } from "./lsp-session.js";

const HEAD = `version: 1
organization: Riverside Democrats
merge_defaults:
  first_name: friend
fields: [polling_place]
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

function project(n: number): string {
  return `  p-${n}:
    id: 9b${String(n).padStart(6, "0")}-0000-4000-8000-${String(n).padStart(12, "0")}
    message: "Hi {{first_name|friend}}, Ward ${n} votes Tuesday at {{polling_place|your polling place}}. Reply STOP to opt out"
    state: scheduled
    schedule:
      at: "2026-12-0${n}T${n % 2 === 0 ? "10" : "22"}:00:00-06:00"
      timezone: America/Chicago
${n > 1 ? `    after: [p-${n - 1}]\n` : ""}`;
}

test("published diagnostics equal validate's after each edit of a series", async () => {
  const folder = tempFolder();
  const path = join(folder, "gotv.yaml");
  const uri = pathToFileURL(path).href;
  let text = HEAD + [1, 2, 3, 4].map(project).join("");
  const edits: ((t: string) => string)[] = [
    (t) => t.replace("Ward 3 votes Tuesday at {{polling_place", "Ward 3 votes Tuesday at {{poling_place"),
    (t) => t.replace("  p-3:\n", "    # a note\n    # another\n\n  p-3:\n"),
    (t) => t.replace("Ward 2 votes Tuesday", "Ward 2 votes on Tuesday 🗳️"),
    (t) =>
      t.replace('message: "Hi {{first_name|friend}}, Ward 4', "message: 'Hi {{first_name|friend}}, Ward 4"),
    (t) =>
      t.replace("message: 'Hi {{first_name|friend}}, Ward 4", 'message: "Hi {{first_name|friend}}, Ward 4'),
    (t) => t.replace("    # a note\n    # another\n\n", ""),
    (t) => t.replace("{{poling_place", "{{polling_place"),
  ];
  const session = await start();
  writeFileSync(path, text);
  await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "yaml", version: 1, text },
  });
  const opened = await session.published(uri, 1);
  expect(essentials(opened.diagnostics)).toEqual(await validateAsLsp(path, text));
  const codes = new Set<string>();
  for (const [index, edit] of edits.entries()) {
    const next = edit(text);
    expect(next, `edit ${index} changes the text`).not.toBe(text);
    text = next;
    writeFileSync(path, text);
    const version = index + 2;
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
    const published = await session.published(uri, version);
    for (const d of published.diagnostics) codes.add(String(d.code));
    expect(essentials(published.diagnostics), `after edit ${index}`).toEqual(await validateAsLsp(path, text));
  }
  expect([...codes]).toEqual(
    expect.arrayContaining(["message.unknown-tag", "lint.non-gsm-character", "campaign.unclosed-quote"]),
  );
  expect(await stop(session)).toBe(0);
  expect(session.stderr()).toBe("");
});
