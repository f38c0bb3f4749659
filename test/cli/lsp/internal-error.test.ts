/**
 * A bug in the server is never silent (issue 34, point 2): when checking a document throws, the
 * server publishes `lsp.internal-error` on it (at its first character, asking to report it) and
 * logs it, instead of publishing nothing; the session goes on, and the next check that succeeds
 * replaces it. The server runs in-process on a pair of streams, its check made to throw through the
 * context it takes at each check.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import { afterEach, expect, test } from "vitest";
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver/node";
import type { DocumentCheckContext } from "../../../cli/lsp/check-document.js";
import { runServer } from "../../../cli/lsp/server.js";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

const TEXT = `version: 1
projects:
  gotv:
    id: 9a000000-0000-4000-8000-000000000001
    message: "Vote Tuesday. Reply STOP to opt out"
`;

test("a check that throws publishes lsp.internal-error on the document, and the next good check replaces it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-lsp-bug-"));
  dirs.push(dir);
  const path = join(dir, "gotv.yaml");
  writeFileSync(path, TEXT);
  const uri = pathToFileURL(path).href;
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const logged: string[] = [];
  let broken = true;
  const ended = runServer({
    input: toServer,
    output: fromServer,
    context: (): DocumentCheckContext => {
      if (broken) throw new TypeError("Cannot read properties of undefined (reading 'instances')");
      return { flags: {}, cwd: dir, now: new Date("2026-11-01T00:00:00Z") };
    },
    debounceMs: 0,
    schedule: (run) => {
      queueMicrotask(run);
      return () => {};
    },
    log: (text) => logged.push(text),
  });
  const client = createProtocolConnection(
    new StreamMessageReader(fromServer),
    new StreamMessageWriter(toServer),
  );
  const published: PublishDiagnosticsParams[] = [];
  let wake: (() => void) | undefined;
  client.onNotification(PublishDiagnosticsNotification.type, (p) => {
    published.push(p);
    wake?.();
  });
  client.listen();
  const next = async (): Promise<PublishDiagnosticsParams> => {
    while (published.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return published.shift() as PublishDiagnosticsParams;
  };
  await client.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: null,
    capabilities: {},
    workspaceFolders: null,
  });
  await client.sendNotification(InitializedNotification.type, {});
  await client.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "yaml", version: 1, text: TEXT },
  });

  const failed = await next();
  expect(failed.uri).toBe(uri);
  expect(failed.diagnostics).toHaveLength(1);
  const [bug] = failed.diagnostics;
  expect(bug).toMatchObject({
    code: "lsp.internal-error",
    severity: 1,
    source: "campaignctl",
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
  });
  expect(bug?.message).toContain("internal error: Cannot read properties of undefined (reading 'instances')");
  expect(bug?.message).toContain("please report it");
  expect(logged.join("")).toContain(`checking ${path} failed`);

  broken = false;
  await client.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: TEXT.replace("Reply STOP to opt out", "Thanks") }],
  });
  const fixed = await next();
  expect(fixed.version).toBe(2);
  expect(fixed.diagnostics.map((d) => d.code)).toEqual(["lint.opt-out-missing"]);

  await client.sendRequest(ShutdownRequest.type);
  await client.sendNotification(ExitNotification.type);
  expect(await ended).toBe("clean");
  client.dispose();
});
