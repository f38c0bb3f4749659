/**
 * A large document's first diagnostics (issue 36: under 1 s for a 10,000-project file): the server
 * publishes the findings of the document's head and first projects (cli/lsp/first-look.ts), then
 * its whole check, which replaces them. Along seeded edits of the first projects every finding of
 * the first look is one of the whole check's, at the same place with the same words; the server
 * publishes both for the opened version, the second equal to the document checked whole. In-process.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import {
  createProtocolConnection,
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
import { checkDocument, type DocumentCheckContext } from "../../cli/lsp/check-document.js";
import { FIRST_LOOK_BYTES, firstLook } from "../../cli/lsp/first-look.js";
import { toLspDiagnostic } from "../../cli/lsp/lsp-diagnostic.js";
import { runServer } from "../../cli/lsp/server.js";
import { seededRandom } from "../../src/sandbox/ids.js";
import { pick } from "../helpers/seeded.js";
import { PROJECT_EDITS, projectsText, templatesText } from "./corpora.js";

const NOW = "2026-11-01T00:00:00Z";
const dir = mkdtempSync(join(tmpdir(), "campaignctl-lsp-first-look-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = join(dir, "big.yaml");
const context: DocumentCheckContext = { flags: {}, cwd: dir, now: new Date(NOW), clock: "--now" };
const json = (d: unknown) => JSON.stringify(d);

describe("the first look", () => {
  test("its findings are the whole check's, along seeded edits of the first projects", () => {
    const rng = seededRandom(36003);
    const bytes = 1024;
    const original = projectsText("p", 16);
    let looked = 0;
    const codes = new Set<string>();
    for (let step = 0; step < 40; step++) {
      // One to three edits of the first four projects (the first look covers two or three).
      let text = original;
      for (let k = Math.floor(rng() * 3); k >= 0; k--) {
        const n = 1 + Math.floor(rng() * 4);
        const start = text.indexOf(`\n  p-${n}:`) + 1;
        if (start === 0) continue;
        const end = text.indexOf("\n  p-", start + 1) + 1;
        const entry = text.slice(start, end);
        const changed = pick(rng, PROJECT_EDITS)(entry, rng, text);
        if (changed !== undefined) text = text.slice(0, start) + changed + text.slice(end);
      }
      const first = firstLook(path, text, context, undefined, bytes);
      if (first === undefined) continue;
      looked++;
      const whole = new Set(checkDocument(path, text, context).map(json));
      for (const d of first) {
        codes.add(d.code);
        expect(whole.has(json(d)), `step ${step}: ${json(d)}`).toBe(true);
      }
    }
    expect(looked).toBeGreaterThan(15);
    expect(codes.size).toBeGreaterThan(2);
  });

  test("not for a small document, nor a template's instances", () => {
    expect(firstLook(path, projectsText("p", 16), context)).toBeUndefined();
    const instances = templatesText(400);
    expect(instances.length).toBeGreaterThan(4 * FIRST_LOOK_BYTES);
    expect(firstLook(path, instances, context)).toBeUndefined();
  });
});

test("the server publishes the first look, then the whole check of the same version", async () => {
  const text = projectsText("p", 150);
  expect(text.length).toBeGreaterThan(4 * FIRST_LOOK_BYTES);
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const ended = runServer({
    input: toServer,
    output: fromServer,
    context: () => context,
    debounceMs: 0,
    schedule: (run) => {
      queueMicrotask(run);
      return () => {};
    },
    log: () => {},
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
  await client.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: null,
    capabilities: {},
    workspaceFolders: null,
  });
  await client.sendNotification(InitializedNotification.type, {});
  const uri = pathToFileURL(path).href;
  await client.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "yaml", version: 1, text },
  });
  while (published.length < 2) await new Promise<void>((resolve) => (wake = resolve));
  const [first, whole] = published as [PublishDiagnosticsParams, PublishDiagnosticsParams];
  expect([first.version, whole.version]).toEqual([1, 1]);
  const expected = checkDocument(path, text, context).map((d) => toLspDiagnostic(d, path));
  expect(whole.diagnostics).toEqual(expected);
  expect(first.diagnostics.length).toBeGreaterThan(0);
  expect(first.diagnostics.length).toBeLessThan(whole.diagnostics.length / 2);
  const all = new Set(whole.diagnostics.map(json));
  for (const d of first.diagnostics) expect(all.has(json(d))).toBe(true);
  await client.sendRequest(ShutdownRequest.type);
  await client.sendNotification(ExitNotification.type);
  expect(await ended).toBe("clean");
  client.dispose();
});
