/**
 * A policy file (or another campaign file of the workspace) saved from the editor, or changed on
 * disk outside it, is seen at once: the open campaign documents are checked again and publish what
 * `validate` now finds. The server checks documents on their buffers but reads policy files and
 * the workspace's closed files from disk; before, a save (the disk changing under an unchanged
 * buffer) checked nothing, and the document kept findings of the old policy until its next edit.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import {
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  FileChangeType,
} from "vscode-languageserver/node";
import type { DiagnosticJson } from "../../../src/diagnostics/json.js";
import { runCli } from "../../helpers/run-cli.js";
import { documentOf } from "../../helpers/schemas.js";
import {
  essentials,
  NOW,
  SEVERITY,
  type Session,
  start,
  stop,
  tempFolder,
  validateAsLsp,
} from "../lsp-session.js";

const CAMPAIGN = readFileSync(new URL("../../fixtures/templates/clean.yaml", import.meta.url), "utf8");
const POLICY = readFileSync(
  new URL("../../fixtures/templates/campaignctl.policy.yaml", import.meta.url),
  "utf8",
);
/** Key-shaped, not a key (the contract's live prefix and twelve characters). */
const KEY = ["pc", "live", "0123456789ab"].join("_");

/** validate's findings for the file, its policy file's (one key there) at the document's start. */
async function withPolicy(path: string): Promise<unknown[]> {
  const result = await runCli(["validate", path, "--json", "--now", NOW]);
  const document = documentOf("validate-result", result.stdout) as { diagnostics: DiagnosticJson[] };
  expect(document.diagnostics.filter((d) => d.range?.file !== path).map((d) => d.code)).toEqual([
    "policy.api-key-in-file",
  ]);
  const start = { line: 0, character: 0 };
  const policy = { code: "policy.api-key-in-file", range: { start, end: start }, severity: SEVERITY.error };
  return [policy, ...(await validateAsLsp(path, CAMPAIGN))];
}

async function opened(session: Session, uri: string, text: string, version = 1): Promise<void> {
  await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "yaml", version, text },
  });
}

function setUp(): { folder: string; path: string; uri: string; policyPath: string; policyUri: string } {
  const folder = tempFolder();
  const path = join(folder, "gotv.yaml");
  const policyPath = join(folder, "campaignctl.policy.yaml");
  writeFileSync(path, CAMPAIGN);
  copyFileSync(new URL("../../fixtures/templates/campaignctl.policy.yaml", import.meta.url), policyPath);
  return {
    folder,
    path,
    uri: pathToFileURL(path).href,
    policyPath,
    policyUri: pathToFileURL(policyPath).href,
  };
}

test("a policy file edited in the editor and saved re-checks the open campaign document", async () => {
  const { folder, path, uri, policyPath, policyUri } = setUp();
  const session = await start(folder);
  await opened(session, uri, CAMPAIGN);
  const first = await session.published(uri, 1);
  expect(essentials(first.diagnostics)).toEqual(await validateAsLsp(path, CAMPAIGN));
  expect(first.diagnostics.map((d) => d.code)).not.toContain("policy.api-key-in-file");
  // The policy opened and edited: its buffer holds the key, the disk not yet.
  await opened(session, policyUri, POLICY);
  const edited = `${POLICY}# ${KEY}\n`;
  await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri: policyUri, version: 2 },
    contentChanges: [{ text: edited }],
  });
  // Checked on the edit (the policy buffer is no campaign file: published empty; the campaign
  // document's findings unchanged, as validate's on the disk's policy).
  expect((await session.published(policyUri, 2)).diagnostics).toEqual([]);
  // Saved: the disk holds the key, the campaign document's buffer is unchanged.
  writeFileSync(policyPath, edited);
  session.drain(uri);
  await session.connection.sendNotification(DidSaveTextDocumentNotification.type, {
    textDocument: { uri: policyUri },
  });
  const after = await session.published(uri, 1);
  expect(after.diagnostics.map((d) => d.code)).toContain("policy.api-key-in-file");
  expect(await withPolicy(path)).toEqual(essentials(after.diagnostics));
  // Code actions and messages never show the key's text.
  expect(JSON.stringify(after.diagnostics)).not.toContain(KEY);
  expect(await stop(session)).toBe(0);
  expect(session.stderr()).toBe("");
});

test("a policy file changed on disk outside the editor re-checks the open campaign document", async () => {
  const { folder, path, uri, policyPath, policyUri } = setUp();
  const session = await start(folder);
  await opened(session, uri, CAMPAIGN);
  await session.published(uri, 1);
  writeFileSync(policyPath, `${POLICY}# ${KEY}\n`);
  session.drain(uri);
  await session.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
    changes: [{ uri: policyUri, type: FileChangeType.Changed }],
  });
  const after = await session.published(uri, 1);
  expect(after.diagnostics.map((d) => d.code)).toContain("policy.api-key-in-file");
  expect(await withPolicy(path)).toEqual(essentials(after.diagnostics));
  expect(await stop(session)).toBe(0);
  expect(session.stderr()).toBe("");
});
