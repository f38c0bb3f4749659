/**
 * Issue 27's acceptance over the repository's own validate corpus: every first-hour mistake of
 * test/campaign/first-hour-cases.ts (each written to a file of its own), the examples, the gallery
 * fixtures and the language server's fixtures are opened in one `campaignctl lsp` session over
 * stdio, and for every file the published diagnostics equal `validate FILE --json`'s (codes,
 * ranges, severities). Waits are for messages, never for time (`--debounce 0`).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import {
  type CodeAction,
  CodeActionRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { FIRST_HOUR_CORPUS, FIRST_HOUR_ERRORS, FIRST_HOUR_VARIANTS } from "../campaign/first-hour-cases.js";
import { essentials, start, stop, tempFolder, validateAsLsp } from "./lsp-session.js";

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/** The repository's campaign files that validate's tests and docs read as they stand. */
const FILES = [
  "../../examples/.reference/annotated.yaml",
  "../../examples/early-vote.yaml",
  "../../examples/gotv.yaml",
  "../../examples/volunteers.yaml",
  "../gallery/fixtures/early-vote.yaml",
  "../gallery/fixtures/gotv.yaml",
  "../gallery/fixtures/volunteers.yaml",
  "../fixtures/lsp/seven-mistakes.yaml",
  "../fixtures/lsp/typos.yaml",
].map(here);

describe("campaignctl lsp on validate's corpus", () => {
  test("every file's published diagnostics equal validate --json's", async () => {
    const folder = tempFolder();
    const cases = [...FIRST_HOUR_ERRORS, ...FIRST_HOUR_CORPUS, ...FIRST_HOUR_VARIANTS];
    expect(cases.length).toBe(48);
    const written = cases.map(([, text], i) => {
      const path = join(folder, `case-${String(i + 1).padStart(2, "0")}.yaml`);
      writeFileSync(path, text);
      return path;
    });
    const session = await start();
    let version = 0;
    let nonEmpty = 0;
    let fixes = 0;
    const titles: string[] = [];
    for (const path of [...written, ...FILES]) {
      const text = readFileSync(path, "utf8");
      const uri = pathToFileURL(path).href;
      version += 1;
      await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: "yaml", version, text },
      });
      const published = await session.published(uri, version);
      const expected = await validateAsLsp(path, text);
      if (expected.length > 0) nonEmpty += 1;
      expect(essentials(published.diagnostics), path).toEqual(expected);

      // Each quick fix, applied as the editor applies it, removes its diagnostic.
      const actions = await session.connection.sendRequest(CodeActionRequest.type, {
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: text.split("\n").length, character: 0 } },
        context: { diagnostics: published.diagnostics },
      });
      for (const action of (actions ?? []) as CodeAction[]) {
        fixes += 1;
        const code = action.diagnostics?.[0]?.code;
        const count = (ds: readonly { code?: unknown }[]) => ds.filter((d) => d.code === code).length;
        const edits = action.edit?.changes?.[uri] ?? [];
        expect(edits.length, action.title).toBeGreaterThan(0);
        const fixed = TextDocument.applyEdits(TextDocument.create(uri, "yaml", version, text), edits);
        version += 1;
        await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
          textDocument: { uri, version },
          contentChanges: [{ text: fixed }],
        });
        const after = await session.published(uri, version);
        expect(count(after.diagnostics), `${path}: ${action.title}`).toBeLessThan(
          count(published.diagnostics),
        );
        titles.push(`${code}: ${action.title}`);
        version += 1;
        await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
          textDocument: { uri, version },
          contentChanges: [{ text }],
        });
        await session.published(uri, version);
      }
      await session.connection.sendNotification(DidCloseTextDocumentNotification.type, {
        textDocument: { uri },
      });
    }
    // Every first-hour case has its error, and the two issue fixtures theirs.
    expect(nonEmpty).toBeGreaterThanOrEqual(cases.length + 2);
    expect(fixes).toBeGreaterThan(10);
    expect(titles).toEqual(
      expect.arrayContaining([
        "campaign.unknown-key: Change to `state`",
        "campaign.schema-enum: Change to `scheduled`",
        'campaign.yaml-unquoted-phone: Write "+15035550150"',
        "message.unknown-tag: Change to {{first_name}}",
        "campaign.after-unknown: Change to `gotv-reminder`",
        'lint.opt-out-missing: Add "Reply STOP to opt out"',
        'policy.require-opt-out-language: Add "Reply STOP to opt out"',
      ]),
    );
    expect(await stop(session)).toBe(0);
    expect(session.stderr()).toBe("");
  });
});
