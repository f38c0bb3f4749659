/**
 * An editor's side of `campaignctl lsp` for the tests, spoken to through vscode-languageserver's
 * own protocol connection: the server run in this process over a pair of streams (`start`: the
 * protocol and the server's behaviour, with any network use said on its stderr), or the built
 * binary spawned with a preload that reports any network use on stderr (`startProcess`: where the
 * process is the point: its exit status, its streams, a network namespace); and validate --json's
 * findings for a file, converted as the server must publish them.
 */
import { spawn } from "node:child_process";
import dns from "node:dns";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import { afterEach, expect } from "vitest";
import {
  createProtocolConnection,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  type Diagnostic as LspDiagnostic,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  ShowMessageNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { LspOptions } from "../../cli/commands/lsp.js";
import { systemSchedule } from "../../cli/lsp/debounce.js";
import { runServer } from "../../cli/lsp/server.js";
import type { DiagnosticJson } from "../../src/diagnostics/json.js";
import { BUILT_CLI, runCli } from "../helpers/run-cli.js";
import { documentOf } from "../helpers/schemas.js";

/** The instant every test session and validate run judge schedules against. */
export const NOW = "2026-11-01T00:00:00Z";

/** A module loaded before the server that reports any network use on stderr. */
export const NO_NETWORK = `data:text/javascript,${encodeURIComponent(`
import net from "node:net";
import dns from "node:dns";
const say = (what) => process.stderr.write("NETWORK " + what + "\\n");
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) { say("connect"); return connect.apply(this, args); };
const lookup = dns.lookup;
dns.lookup = function (...args) { say("lookup"); return lookup.apply(this, args); };
`)}`;
export const SEVERITY = { error: 1, warning: 2, info: 3 } as const;

export interface Session {
  readonly connection: ProtocolConnection;
  /** The next publishDiagnostics for `uri` (with `version`, when given). */
  readonly published: (uri: string, version?: number) => Promise<PublishDiagnosticsParams>;
  /** Every publishDiagnostics for `uri` received and not yet taken, oldest first (taken now). */
  readonly drain: (uri: string) => PublishDiagnosticsParams[];
  /** The exit status: the process's, or in-process the one `campaignctl lsp` ends with (0 clean, 1 not). */
  readonly exited: Promise<number | null>;
  readonly stderr: () => string;
  /** Every window/showMessage the server sent, in order. */
  readonly messages: readonly string[];
  /** Ends the server if it still runs (the editor gone: its input closed, or the process killed). */
  readonly kill: () => void;
}

let sessions: Session[] = [];
let folders: string[] = [];

export function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "campaignctl-lsp-"));
  folders.push(folder);
  return folder;
}

afterEach(() => {
  for (const s of sessions) s.kill();
  sessions = [];
  for (const f of folders) rmSync(f, { recursive: true, force: true });
  folders = [];
});

/** The flags commander gives `lsp --stdio --debounce 0 --now NOW`, as the in-process server takes them. */
const FLAGS: LspOptions = { stdio: true, debounce: 0, now: new Date(NOW) };

/**
 * The server run in this process (cli/lsp/server.ts, as `campaignctl lsp` runs it with FLAGS) over
 * a pair of streams, in `folder` as the workspace if given, and initialized. While it runs, every
 * outgoing connection or name lookup in this process is said on its stderr, which the tests expect
 * empty.
 */
export async function start(folder?: string): Promise<Session> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  let err = "";
  const unwatch = watchNetwork((what) => {
    err += `NETWORK ${what}\n`;
  });
  const end = runServer({
    input: toServer,
    output: toClient,
    context: () => ({ flags: FLAGS, cwd: process.cwd(), now: new Date(NOW), clock: "--now" }),
    debounceMs: 0,
    schedule: systemSchedule,
    log: (text) => {
      err += text;
    },
  });
  const exited = end.then((how) => {
    unwatch();
    toClient.end();
    return how === "clean" ? 0 : 1;
  });
  return initialized(
    createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer)),
    { exited, stderr: () => err, kill: () => toServer.end() },
    folder,
  );
}

/** Network use seen while at least one in-process server runs, told to each watcher. */
const watchers = new Set<(what: string) => void>();
let restore: (() => void) | undefined;

/** Reports each outgoing connection and name lookup of this process to `say` until the returned call. */
function watchNetwork(say: (what: string) => void): () => void {
  watchers.add(say);
  if (restore === undefined) {
    const connect = net.Socket.prototype.connect;
    const lookup = dns.lookup;
    const tell = (what: string) => {
      for (const w of watchers) w(what);
    };
    net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
      tell("connect");
      return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
    } as typeof connect;
    dns.lookup = function (this: unknown, ...args: unknown[]) {
      tell("lookup");
      return (lookup as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof lookup;
    restore = () => {
      net.Socket.prototype.connect = connect;
      dns.lookup = lookup;
    };
  }
  return () => {
    watchers.delete(say);
    if (watchers.size === 0) {
      restore?.();
      restore = undefined;
    }
  };
}

/**
 * The built `campaignctl lsp` spawned (in `folder` as the workspace, if given) and initialized;
 * `launcher` runs it under another program (`unshare -rn` for a network namespace without any
 * network). Only where the process is the point: each costs a Node start and the CLI's load.
 */
export async function startProcess(
  folder?: string,
  extraArgs: readonly string[] = [],
  launcher: readonly string[] = [],
): Promise<Session> {
  // Every outgoing connection or name lookup is said on stderr, which the tests expect empty.
  const argv = [
    "--import",
    NO_NETWORK,
    BUILT_CLI,
    "lsp",
    "--stdio",
    "--debounce",
    "0",
    "--now",
    NOW,
    ...extraArgs,
  ];
  const [program, ...before] = launcher.length > 0 ? launcher : [process.execPath];
  const child = spawn(
    program ?? process.execPath,
    launcher.length > 0 ? [...before, process.execPath, ...argv] : argv,
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
  const kill = () => {
    if (child.exitCode === null) child.kill();
  };
  return initialized(
    createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin)),
    { exited, stderr: () => err, kill },
    folder,
  );
}

/** The client's side of a session on `connection`: listening, then `initialize` and `initialized` sent. */
async function initialized(
  connection: ProtocolConnection,
  server: Pick<Session, "exited" | "stderr" | "kill">,
  folder: string | undefined,
): Promise<Session> {
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
  const messages: string[] = [];
  connection.onNotification(ShowMessageNotification.type, (params) => {
    messages.push(params.message);
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
  const session: Session = { ...server, connection, published, drain, messages };
  sessions.push(session);
  const init = await connection.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: null,
    capabilities: {},
    workspaceFolders: folder === undefined ? null : [{ uri: pathToFileURL(folder).href, name: "campaign" }],
  });
  expect(init.serverInfo?.name).toBe("campaignctl");
  expect(init.capabilities.textDocumentSync).toEqual({ openClose: true, change: 2, save: true });
  await connection.sendNotification(InitializedNotification.type, {});
  return session;
}

export async function stop(session: Session): Promise<number | null> {
  await session.connection.sendRequest(ShutdownRequest.type);
  await session.connection.sendNotification(ExitNotification.type);
  return session.exited;
}

/**
 * What validate --json says about `path` (run on `target`: the file, or the folder holding it), as
 * the server must publish it for `text`.
 */
export async function validateAsLsp(
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
    expect(lines.positionAt(d.range.start.offset), `${path} ${d.code}`).toEqual(range.start);
    expect(lines.positionAt(d.range.end.offset), `${path} ${d.code}`).toEqual(range.end);
    return [{ code: d.code, range, severity: SEVERITY[d.severity] }];
  });
}

export function essentials(
  ds: readonly LspDiagnostic[],
): Pick<LspDiagnostic, "code" | "range" | "severity">[] {
  return ds.map((d) => ({ code: d.code, range: d.range, severity: d.severity }));
}
