/**
 * `campaignctl lsp` driven over stdio as an editor drives it: the built binary is spawned, and the
 * test speaks to it through vscode-languageserver's own protocol connection (initialize,
 * didOpen, didChange, didClose, shutdown, exit). On issue 27's file with seven mistakes the
 * published diagnostics equal `validate --json`'s for that file (codes, ranges converted to LSP's
 * 0-based UTF-16 positions, severities, hints), with the fixture's policy in force; a change
 * republishes from the unsaved text, not the file on disk. Each wait is for a message, never for
 * time: the server runs with `--debounce 0`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import {
  CompletionRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  type Diagnostic as LspDiagnostic,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { DiagnosticJson } from "../../src/diagnostics/json.js";
import { BUILT_CLI, runCli } from "../helpers/run-cli.js";
import { documentOf } from "../helpers/schemas.js";

const NOW = "2026-11-01T00:00:00Z";
const FIXTURE = fileURLToPath(new URL("../fixtures/lsp/seven-mistakes.yaml", import.meta.url));
const URI = pathToFileURL(FIXTURE).href;
const A_YAML = `version: 1
organization: Riverside Democrats
projects:
  gotv-reminder:
    id: 9a000000-0000-4000-8000-000000000001
    name: GOTV Reminder
    channel: 10dlc
    message: "Hi {{first_name|friend}}, vote tomorrow! Reply STOP to opt out"
    state: draft
`;
const B_YAML = `version: 1
organization: Riverside Democrats
projects:
  gotv-followup:
    id: 9a000000-0000-4000-8000-000000000002
    name: GOTV Follow-up
    channel: 10dlc
    message: "Polls close at 7pm tonight! Reply STOP to opt out"
    state: draft
    after: [gotv-reminder]
  gotv-again:
    id: 9a000000-0000-4000-8000-000000000001
    name: GOTV Again
    channel: 10dlc
    message: "Vote today! Reply STOP to opt out"
    state: draft
`;
/** A module loaded before the server that reports any network use on stderr. */
const NO_NETWORK = `data:text/javascript,${encodeURIComponent(`
import net from "node:net";
import dns from "node:dns";
const say = (what) => process.stderr.write("NETWORK " + what + "\\n");
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) { say("connect"); return connect.apply(this, args); };
const lookup = dns.lookup;
dns.lookup = function (...args) { say("lookup"); return lookup.apply(this, args); };
`)}`;
const SEVERITY = { error: 1, warning: 2, info: 3 } as const;

interface Session {
  readonly child: ChildProcess;
  readonly connection: ProtocolConnection;
  /** The next publishDiagnostics for `uri` (with `version`, when given). */
  readonly published: (uri: string, version?: number) => Promise<PublishDiagnosticsParams>;
  /** Every publishDiagnostics for `uri` received and not yet taken, oldest first (taken now). */
  readonly drain: (uri: string) => PublishDiagnosticsParams[];
  readonly exited: Promise<number | null>;
  readonly stderr: () => string;
}

let sessions: Session[] = [];
let folders: string[] = [];

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "campaignctl-lsp-"));
  folders.push(folder);
  return folder;
}

afterEach(() => {
  for (const s of sessions) if (s.child.exitCode === null) s.child.kill();
  sessions = [];
  for (const f of folders) rmSync(f, { recursive: true, force: true });
  folders = [];
});

async function start(folder?: string): Promise<Session> {
  // Every outgoing connection or name lookup is said on stderr, which the tests expect empty.
  const child = spawn(
    process.execPath,
    ["--import", NO_NETWORK, BUILT_CLI, "lsp", "--stdio", "--debounce", "0", "--now", NOW],
    {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    },
  );
  let err = "";
  child.stderr?.on("data", (b: Buffer) => {
    err += b.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  if (child.stdout === null || child.stdin === null) throw new Error("bug: no pipes");
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const seen: PublishDiagnosticsParams[] = [];
  const waiting: {
    match: (p: PublishDiagnosticsParams) => boolean;
    resolve: (p: PublishDiagnosticsParams) => void;
  }[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    const i = waiting.findIndex((w) => w.match(params));
    if (i >= 0) waiting.splice(i, 1)[0]?.resolve(params);
    else seen.push(params);
  });
  connection.listen();
  const published = (uri: string, version?: number): Promise<PublishDiagnosticsParams> => {
    const match = (p: PublishDiagnosticsParams) =>
      p.uri === uri && (version === undefined || p.version === version);
    const i = seen.findIndex(match);
    if (i >= 0) return Promise.resolve(seen.splice(i, 1)[0] as PublishDiagnosticsParams);
    return new Promise((resolve) => waiting.push({ match, resolve }));
  };
  const drain = (uri: string): PublishDiagnosticsParams[] => {
    const taken = seen.filter((p) => p.uri === uri);
    for (const p of taken) seen.splice(seen.indexOf(p), 1);
    return taken;
  };
  const session = { child, connection, published, drain, exited, stderr: () => err };
  sessions.push(session);
  const init = await connection.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: null,
    capabilities: {},
    workspaceFolders: folder === undefined ? null : [{ uri: pathToFileURL(folder).href, name: "campaign" }],
  });
  expect(init.serverInfo?.name).toBe("campaignctl");
  expect(init.capabilities.textDocumentSync).toBe(2);
  await connection.sendNotification(InitializedNotification.type, {});
  return session;
}

async function stop(session: Session): Promise<number | null> {
  await session.connection.sendRequest(ShutdownRequest.type);
  await session.connection.sendNotification(ExitNotification.type);
  return session.exited;
}

/**
 * What validate --json says about `path` (run on `target`: the file, or the folder holding it), as
 * the server must publish it for `text`.
 */
async function validateAsLsp(
  path: string,
  text: string,
  target = path,
): Promise<Pick<LspDiagnostic, "code" | "range" | "severity">[]> {
  const result = await runCli(["validate", target, "--json", "--now", NOW]);
  const document = documentOf("validate-result", result.stdout) as { diagnostics: DiagnosticJson[] };
  const lines = TextDocument.create("file:///x", "yaml", 0, text);
  return document.diagnostics.flatMap((d) => {
    if (d.range === null) throw new Error(`no range: ${d.code}`);
    if (d.range.file !== path) return [];
    // Converted from line and column; the offset, through the library's own UTF-16 arithmetic,
    // must name the same place (a surrogate pair before it on the line counts two).
    const range = {
      start: { line: d.range.start.line - 1, character: d.range.start.column - 1 },
      end: { line: d.range.end.line - 1, character: d.range.end.column - 1 },
    };
    expect(lines.positionAt(d.range.start.offset)).toEqual(range.start);
    expect(lines.positionAt(d.range.end.offset)).toEqual(range.end);
    return [{ code: d.code, range, severity: SEVERITY[d.severity] }];
  });
}

function essentials(ds: readonly LspDiagnostic[]): Pick<LspDiagnostic, "code" | "range" | "severity">[] {
  return ds.map((d) => ({ code: d.code, range: d.range, severity: d.severity }));
}

describe("campaignctl lsp over stdio", () => {
  test("publishes validate's diagnostics for the seven-mistake file, and follows the unsaved text", async () => {
    const text = readFileSync(FIXTURE, "utf8");
    const expected = await validateAsLsp(FIXTURE, text);
    expect(expected.map((d) => d.code)).toEqual([
      "lint.opt-out-missing",
      "policy.require-opt-out-language",
      "lint.non-gsm-character",
      "lint.non-gsm-character",
      "message.unknown-tag",
      "campaign.test-phone-not-nanp",
      "lint.quiet-hours",
      "policy.send-window",
      "campaign.after-unknown",
    ]);

    const session = await start();
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: "yaml", version: 1, text },
    });
    const opened = await session.published(URI, 1);
    expect(essentials(opened.diagnostics)).toEqual(expected);
    for (const d of opened.diagnostics) expect(d.source).toBe("campaignctl");
    const tag = opened.diagnostics.find((d) => d.code === "message.unknown-tag");
    expect(tag?.message).toContain("{{frist_name}}");
    expect(tag?.message).toContain("\nhint: did you mean {{first_name}}?");
    // The emoji at column 15 is a surrogate pair: the tag after it starts at character 23, not 22.
    expect(tag?.range.start).toEqual({ line: 19, character: 23 });
    const window = opened.diagnostics.find((d) => d.code === "policy.send-window");
    expect(window?.message).toContain("outside the policy's send window 09:00-20:00");

    // An unsaved edit: the `after:` typo fixed in the buffer only (the file on disk keeps it).
    const line = text.split("\n").findIndex((l) => l.includes("gotv-remnder"));
    const character = (text.split("\n")[line] ?? "").indexOf("gotv-remnder");
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [
        {
          range: { start: { line, character }, end: { line, character: character + "gotv-remnder".length } },
          text: "gotv-reminder",
        },
      ],
    });
    const changed = await session.published(URI, 2);
    expect(essentials(changed.diagnostics)).toEqual(
      expected.filter((d) => d.code !== "campaign.after-unknown"),
    );
    expect(readFileSync(FIXTURE, "utf8")).toBe(text);

    // A whole-text change that breaks the YAML is reported as validate reports it.
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: URI, version: 3 },
      contentChanges: [{ text: "version: 1\nprojects: [\n" }],
    });
    const broken = await session.published(URI, 3);
    expect(broken.diagnostics.map((d) => d.code)).toEqual(["campaign.unclosed-bracket"]);

    await session.connection.sendNotification(DidCloseTextDocumentNotification.type, {
      textDocument: { uri: URI },
    });
    const closed = await session.published(URI);
    expect(closed.diagnostics).toEqual([]);

    expect(await stop(session)).toBe(0);
    expect(session.stderr()).toBe("");
  });

  test("in a workspace folder, findings across files follow the other files' unsaved buffers", async () => {
    const folder = tempFolder();
    const a = join(folder, "a.yaml");
    const b = join(folder, "b.yaml");
    writeFileSync(a, A_YAML);
    writeFileSync(b, B_YAML);
    const [aUri, bUri] = [pathToFileURL(a).href, pathToFileURL(b).href];
    // Across the folder: gotv-reminder is declared in a.yaml (no after-unknown), its id is repeated.
    const expected = await validateAsLsp(b, B_YAML, folder);
    expect(expected.map((d) => d.code)).toEqual(["campaign.duplicate-id"]);

    const session = await start(folder);
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: bUri, languageId: "yaml", version: 1, text: B_YAML },
    });
    const opened = await session.published(bUri, 1);
    expect(essentials(opened.diagnostics)).toEqual(expected);
    expect(opened.diagnostics[0]?.relatedInformation?.[0]?.location.uri).toBe(aUri);

    // Completion of `after:` offers the addresses of both files, the project's own left out.
    const afterLine = B_YAML.split("\n").findIndex((l) => l.includes("after: [gotv-"));
    const character = (B_YAML.split("\n")[afterLine] ?? "").indexOf("[gotv-") + "[gotv-".length;
    const offered = await session.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: bUri },
      position: { line: afterLine, character },
    });
    const labels = (Array.isArray(offered) ? offered : (offered?.items ?? [])).map((i) => i.label);
    expect(labels).toEqual(["gotv-again", "gotv-reminder"]);

    // a.yaml renames the project in its buffer only: b.yaml's `after:` no longer resolves.
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: aUri, languageId: "yaml", version: 1, text: A_YAML },
    });
    await session.published(aUri, 1);
    const renamed = A_YAML.replace("gotv-reminder:", "gotv-reminded:");
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: aUri, version: 2 },
      contentChanges: [{ text: renamed }],
    });
    await session.published(aUri, 2);
    const afterRename = session.drain(bUri).at(-1);
    // The same as validate over a folder where a.yaml says so on disk.
    const edited = tempFolder();
    writeFileSync(join(edited, "a.yaml"), renamed);
    writeFileSync(join(edited, "b.yaml"), B_YAML);
    const expectedAfter = await validateAsLsp(join(edited, "b.yaml"), B_YAML, edited);
    expect(expectedAfter.map((d) => d.code)).toEqual(["campaign.after-unknown", "campaign.duplicate-id"]);
    expect(essentials(afterRename?.diagnostics ?? [])).toEqual(expectedAfter);
    expect(readFileSync(a, "utf8")).toBe(A_YAML);
    expect(await stop(session)).toBe(0);
    expect(session.stderr()).toBe("");
  });

  test("every campaign file of examples/ and the gallery fixtures gets validate's diagnostics", async () => {
    const corpus = [
      "../../examples/.reference/annotated.yaml",
      "../../examples/early-vote.yaml",
      "../../examples/gotv.yaml",
      "../../examples/volunteers.yaml",
      "../gallery/fixtures/early-vote.yaml",
      "../gallery/fixtures/gotv.yaml",
      "../gallery/fixtures/volunteers.yaml",
    ].map((f) => fileURLToPath(new URL(f, import.meta.url)));
    const session = await start();
    let version = 0;
    for (const path of corpus) {
      const text = readFileSync(path, "utf8");
      const uri = pathToFileURL(path).href;
      version += 1;
      await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: "yaml", version, text },
      });
      const published = await session.published(uri, version);
      expect(essentials(published.diagnostics), path).toEqual(await validateAsLsp(path, text));
      await session.connection.sendNotification(DidCloseTextDocumentNotification.type, {
        textDocument: { uri },
      });
    }
    expect(await stop(session)).toBe(0);
    expect(session.stderr()).toBe("");
  });

  test("an exit without shutdown ends the server with status 1", async () => {
    const session = await start();
    await session.connection.sendNotification(ExitNotification.type);
    expect(await session.exited).toBe(1);
  });

  test("a policy file or a YAML file of another schema gets no diagnostics", async () => {
    const session = await start();
    const policy = fileURLToPath(new URL("../fixtures/lsp/campaignctl.policy.yaml", import.meta.url));
    const policyUri = pathToFileURL(policy).href;
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: policyUri, languageId: "yaml", version: 1, text: readFileSync(policy, "utf8") },
    });
    expect((await session.published(policyUri, 1)).diagnostics).toEqual([]);
    const otherUri = pathToFileURL(
      fileURLToPath(new URL("../fixtures/lsp/other.yaml", import.meta.url)),
    ).href;
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: {
        uri: otherUri,
        languageId: "yaml",
        version: 1,
        text: "# yaml-language-server: $schema=https://json.schemastore.org/github-workflow.json\non: push\n",
      },
    });
    expect((await session.published(otherUri, 1)).diagnostics).toEqual([]);
    expect(await stop(session)).toBe(0);
  });
});
