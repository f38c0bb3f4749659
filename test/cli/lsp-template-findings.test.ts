/**
 * Issue 33 point 4 in the editor: the language server publishes a finding at a template's value
 * once, with every instance in relatedInformation, exactly as `validate --json` reports it (the
 * lsp/validate equality of lsp-corpus.test.ts), also after an edit checked incrementally; the quick
 * fix of the one finding removes it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import {
  type CodeAction,
  CodeActionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { counties, countyTemplate, NON_GSM } from "../campaign/county-template.js";
import { essentials, start, stop, tempFolder, validateAsLsp } from "./lsp-session.js";

describe("campaignctl lsp on 60 instances of a template", () => {
  test("publishes validate's findings: one per character, the 60 instances related", async () => {
    const folder = tempFolder();
    const path = join(folder, "counties.yaml");
    const text = countyTemplate(counties(60));
    writeFileSync(path, text);
    const uri = pathToFileURL(path).href;
    const session = await start(folder);
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "yaml", version: 1, text },
    });
    const published = await session.published(uri, 1);
    expect(essentials(published.diagnostics)).toEqual(await validateAsLsp(path, text, folder));
    const nonGsm = published.diagnostics.filter((d) => d.code === "lint.non-gsm-character");
    expect(nonGsm.length).toBe(NON_GSM.length);
    for (const d of nonGsm) {
      expect(d.relatedInformation?.length).toBe(60);
      expect(String(d.message).startsWith("template `gotv` (60 instances): the message holds")).toBe(true);
    }

    // An edit of one instance (its own merge_defaults give it other figures), checked incrementally.
    const edited = text.replace(
      "        id: 9a000000-0000-4000-8000-000000000030\n",
      `        id: 9a000000-0000-4000-8000-000000000030\n        merge_defaults: {polling_place: "${"the Memorial Hall of the County Courthouse, ".repeat(2)}"}\n`,
    );
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: edited }],
    });
    const after = await session.published(uri, 2);
    writeFileSync(path, edited);
    expect(essentials(after.diagnostics)).toEqual(await validateAsLsp(path, edited, folder));
    expect(
      after.diagnostics
        .filter((d) => d.code === "lint.non-gsm-character")
        .map((d) => d.relatedInformation?.length),
    ).toEqual([59, 1, 59, 1, 59, 1]);

    // The quick fix of the first character's finding removes it, for every instance at once.
    const actions = (await session.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: nonGsm[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [nonGsm[0] ?? published.diagnostics[0]].flatMap((d) => d ?? []) },
    })) as CodeAction[];
    const fix = actions.find((a) => a.title === "Write o instead of ó");
    const fixed = TextDocument.applyEdits(
      TextDocument.create(uri, "yaml", 2, edited),
      fix?.edit?.changes?.[uri] ?? [],
    );
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 3 },
      contentChanges: [{ text: fixed }],
    });
    const fixedPublished = await session.published(uri, 3);
    expect(
      fixedPublished.diagnostics.filter((d) => d.code === "lint.non-gsm-character").map((d) => d.message),
    ).toEqual([
      expect.stringMatching(/^template `gotv` \(59 instances\): the message holds í/),
      expect.stringMatching(/^county-30: the message holds í/),
      expect.stringMatching(/^template `gotv` \(59 instances\): the message holds á/),
      expect.stringMatching(/^county-30: the message holds á/),
    ]);
    expect(await stop(session)).toBe(0);
    expect(session.stderr()).toBe("");
  });
});
