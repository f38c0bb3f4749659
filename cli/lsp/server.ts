/**
 * The language server of `campaignctl lsp`, on vscode-languageserver (JSON-RPC framing, the
 * protocol's lifecycle and text synchronisation are the library's; nothing here frames a message).
 * On open and on every change (debounced) it publishes validate's diagnostics for each open
 * document's text (check-document.ts), with the findings across the files of its workspace folder
 * (open ones as their buffers stand); on close it clears them. It makes no network request: the
 * only IO is the connection and reading policy files. The library's node entry point would end the
 * process itself on `exit`; this server is built on its common core with a watchdog that resolves
 * the returned promise instead, so cli/main.ts stays the only place that exits. A bug met while
 * checking, completing or hovering is published on the document as `lsp.internal-error`, never
 * swallowed.
 */
import { sep } from "node:path";
import {
  CodeActionKind,
  type Connection,
  createConnection,
  type InitializeParams,
  type InitializeResult,
  MessageType,
  ShowMessageNotification,
  TextDocumentSyncKind,
  TextDocuments,
  type WatchDog,
} from "vscode-languageserver";
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { FileCheck } from "../../src/campaign/file-check.js";
import { campaignSchema } from "../../src/campaign/schema.js";
import type { ReadCache } from "../adapters/campaign-files.js";
import { VERSION } from "../version.js";
import { type AnswerContext, completionsOf, hoverOf } from "./answers.js";
import { type CheckMemory, checkDocument, checkMemory, type DocumentCheckContext } from "./check-document.js";
import { codeActions, type PublishedDiagnostic } from "./code-actions.js";
import { type Debouncer, debouncer, type Schedule } from "./debounce.js";
import { documentPath } from "./document-path.js";
import { firstLook } from "./first-look.js";
import { internalErrorDiagnostic, type ServerTask } from "./internal-error.js";
import { toLspDiagnostic } from "./lsp-diagnostic.js";
import { type LspForms, lspForms } from "./lsp-forms.js";
import { messageEncoder } from "./publish-encoder.js";
import { publishedEntries } from "./published-entries.js";
import { snapshotCache } from "./snapshot-source.js";

/** What the server is given: its streams, the check's context, the debounce delay and timer. */
export interface ServerOptions {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  /** The context of each check, taken when the check runs (so a clock-based `now` is fresh). */
  readonly context: () => DocumentCheckContext;
  readonly debounceMs: number;
  readonly schedule: Schedule;
  /** Where the server logs a check that threw (a bug), beside the `lsp.internal-error` it publishes. */
  readonly log: (text: string) => void;
}

/** How the session ended: `exit` after `shutdown` (clean), or without it, or the client went away. */
export type ServerEnd = "clean" | "unclean";

/** Runs the server until the client sends `exit` or closes the input stream. */
export function runServer(options: ServerOptions): Promise<ServerEnd> {
  return new Promise((resolve) => {
    let ended = false;
    const debounce = debouncer(options.debounceMs, options.schedule);
    const end = (how: ServerEnd): void => {
      if (ended) return;
      ended = true;
      debounce.cancelAll();
      connection.dispose();
      resolve(how);
    };
    const watchDog: WatchDog = {
      shutdownReceived: false,
      initialize: () => {},
      exit: (code) => end(code === 0 ? "clean" : "unclean"),
    };
    const connection = connect(options, watchDog);
    options.input.on("end", () => end(watchDog.shutdownReceived ? "clean" : "unclean"));
    options.input.on("close", () => end(watchDog.shutdownReceived ? "clean" : "unclean"));
    const state = sessionState(options, connection, () => ended);
    listen(state, debounce);
  });
}

/** A write that fails means the editor has gone: the input's end ends the session. */
const gone = (): void => {};

/** The protocol connection over the streams, on the library's common core with `watchDog`. */
function connect(options: ServerOptions, watchDog: WatchDog): Connection {
  return createConnection(
    (logger) =>
      createProtocolConnection(
        new StreamMessageReader(options.input),
        new StreamMessageWriter(options.output, { charset: "utf-8", contentTypeEncoder: messageEncoder }),
        logger,
      ),
    watchDog,
  );
}

/** What one session keeps: its connection, open documents, workspace folders and memories. */
interface SessionState {
  readonly options: ServerOptions;
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  readonly ended: () => boolean;
  /** Workspace folders (absolute paths), from `initialize`. */
  folders: string[];
  readonly cache: Map<string, FileCheck>;
  readonly reads: ReadCache;
  readonly memory: CheckMemory;
  readonly snapshotFor: ReturnType<typeof snapshotCache>;
  /** Each finding's LSP form, reused while the finding is unchanged. */
  readonly forms: LspForms;
  /** Said once a session: completion of names needs a snapshot, and how to make one. */
  saidNoSnapshot: boolean;
  /** Documents given a first look (first-look.ts) since they were opened. */
  readonly looked: Set<string>;
  /** What was last published for each open document, with each diagnostic's fixes as edits. */
  readonly published: Map<string, { version: number; entries: PublishedDiagnostic[] }>;
  loadedSchema: Record<string, unknown> | undefined;
}

function sessionState(options: ServerOptions, connection: Connection, ended: () => boolean): SessionState {
  return {
    options,
    connection,
    documents: new TextDocuments(TextDocument),
    ended,
    folders: [],
    cache: new Map(),
    reads: new Map(),
    memory: checkMemory(),
    snapshotFor: snapshotCache(),
    forms: lspForms(),
    saidNoSnapshot: false,
    published: new Map(),
    looked: new Set(),
    loadedSchema: undefined,
  };
}

/** The campaign schema, loaded on first use. */
function schemaOf(state: SessionState): Record<string, unknown> {
  state.loadedSchema ??= campaignSchema();
  return state.loadedSchema;
}

/** Tells the editor once a session that names are not completed without a snapshot. */
function sayNoSnapshot(state: SessionState, path: string): void {
  if (state.saidNoSnapshot) return;
  state.saidNoSnapshot = true;
  // A notification (no answer awaited, no buttons): said once, then silence.
  state.connection
    .sendNotification(ShowMessageNotification.type, {
      type: MessageType.Info,
      message: `campaignctl: no offline snapshot (.campaignctl/snapshot.json) above ${path}, so names of lists, numbers, brands and registrations are not completed. Run \`campaignctl plan\` (or \`campaignctl import\`) on these files once to write it; editing never uses the network.`,
    })
    .catch(gone);
}

/** The workspace folder holding `path` (the deepest), or undefined. */
function folderOf(state: SessionState, path: string): string | undefined {
  return state.folders
    .filter((f) => path === f || path.startsWith(f.endsWith(sep) ? f : `${f}${sep}`))
    .sort((a, b) => b.length - a.length)[0];
}

/** The texts of the open file documents, by path. */
function openBuffers(state: SessionState): Map<string, string> {
  return new Map(
    state.documents.all().flatMap((d) => {
      const path = documentPath(d.uri);
      return path === undefined ? [] : [[path, d.getText()] as const];
    }),
  );
}

/**
 * A large document's first check, published before its whole check (first-look.ts), which runs at
 * the event loop's next turn (requests read meanwhile are answered first). True when published.
 */
function publishFirstLook(state: SessionState, document: TextDocument, path: string): boolean {
  if (state.memory.documents.has(path) || state.looked.has(document.uri)) return false;
  state.looked.add(document.uri);
  const text = document.getText();
  const found = firstLook(path, text, state.options.context(), state.memory.looks);
  if (found === undefined) return false;
  send(state, document.uri, document.version, publishedEntries(state.forms, path, text, found));
  state.options.schedule(() => {
    const now = state.documents.get(document.uri);
    if (now !== undefined && !state.ended()) publish(state, now, path, openBuffers(state));
  }, 0);
  return true;
}

/** Checks `document` and publishes its findings (or the bug met checking it). */
function publish(
  state: SessionState,
  document: TextDocument,
  path: string,
  buffers: ReadonlyMap<string, string>,
): void {
  const folder = folderOf(state, path);
  let entries: PublishedDiagnostic[];
  try {
    if (publishFirstLook(state, document, path)) return;
    const text = document.getText();
    const found = checkDocument(
      path,
      text,
      state.options.context(),
      folder === undefined ? undefined : { folder, buffers, cache: state.cache, reads: state.reads },
      state.memory,
    );
    entries = publishedEntries(state.forms, path, text, found);
  } catch (error) {
    failed(state, document, path, "checking", error);
    return;
  }
  send(state, document.uri, document.version, entries);
}

/**
 * Publishes `entries` for version `version` of `uri`, unless the client already has exactly them
 * for that version (a document checked again because another open one changed): the list is the
 * whole of a document's findings, 7 MB for a 10,000-project file. A new version is always
 * published (clients and the code actions tie a list to its version).
 */
function send(state: SessionState, uri: string, version: number, entries: PublishedDiagnostic[]): void {
  const last = state.published.get(uri);
  state.published.set(uri, { version, entries });
  if (last !== undefined && last.version === version && sameList(last.entries, entries)) return;
  state.connection.sendDiagnostics({ uri, version, diagnostics: entries.map((e) => e.lsp) }).catch(gone);
}

/** True when the two lists publish the same diagnostics (the same objects, or equal JSON). */
function sameList(a: readonly PublishedDiagnostic[], b: readonly PublishedDiagnostic[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((e, i) => {
    const other = (b[i] as PublishedDiagnostic).lsp;
    return e.lsp === other || JSON.stringify(e.lsp) === JSON.stringify(other);
  });
}

/**
 * A bug met on `document` is never silent: logged, and shown on the document as
 * `lsp.internal-error` (with the findings last published for it, when a completion or a hover
 * failed: they still stand).
 */
function failed(
  state: SessionState,
  document: TextDocument,
  path: string,
  task: ServerTask,
  error: unknown,
): void {
  state.options.log(`campaignctl lsp: ${task} ${path} failed: ${String(error)}\n`);
  const failure = {
    lsp: toLspDiagnostic(internalErrorDiagnostic(path, task, error), path),
    fixes: () => [],
  };
  const last = task === "checking" ? undefined : state.published.get(document.uri);
  send(state, document.uri, last?.version ?? document.version, [...(last?.entries ?? []), failure]);
}

/** Every open file document, checked against the others' buffers (an edit in one may change another's). */
function publishAll(state: SessionState): void {
  if (state.ended()) return;
  const open = state.documents.all().flatMap((d) => {
    const path = documentPath(d.uri);
    return path === undefined ? [] : [{ document: d, path }];
  });
  const buffers = new Map(open.map(({ document, path }) => [path, document.getText()]));
  for (const { document, path } of open) publish(state, document, path, buffers);
}

function initialize(state: SessionState, params: InitializeParams): InitializeResult {
  const uris = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
  state.folders = uris.flatMap((u) => documentPath(u) ?? []);
  return {
    capabilities: {
      // Saves: a policy file or a closed file of the workspace is read from disk (checkAll).
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: true },
      completionProvider: { triggerCharacters: ["[", ","] },
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    },
    serverInfo: { name: "campaignctl", version: VERSION },
  };
}

/** What completion and hover read from the session (answers.ts). */
function answerContext(state: SessionState): AnswerContext {
  return {
    memory: state.memory,
    snapshotFor: (path) => state.snapshotFor(path, folderOf(state, path)),
    workspaceOf: (path) => {
      const folder = folderOf(state, path);
      return folder === undefined
        ? undefined
        : { folder, buffers: openBuffers(state), cache: state.cache, reads: state.reads };
    },
    schema: () => schemaOf(state),
    noSnapshot: (path) => sayNoSnapshot(state, path),
  };
}

/**
 * `run` on the open file document `uri` (an untitled buffer has no path to find policies from),
 * a bug it meets published on the document; `none` when there is no such document or it failed.
 */
function onFileDocument<T>(
  state: SessionState,
  uri: string,
  task: ServerTask,
  none: T,
  run: (document: TextDocument, path: string) => T,
): T {
  const document = state.documents.get(uri);
  const path = document === undefined ? undefined : documentPath(document.uri);
  if (document === undefined || path === undefined) return none;
  try {
    return run(document, path);
  } catch (error) {
    failed(state, document, path, task, error);
    return none;
  }
}

/** The session's handlers, and listening. */
function listen(state: SessionState, debounce: Debouncer): void {
  const { connection, documents } = state;
  connection.onInitialize((params) => initialize(state, params));
  connection.onCompletion(({ textDocument, position }) =>
    onFileDocument(state, textDocument.uri, "completing", [], (document, path) =>
      completionsOf(answerContext(state), document, path, position),
    ),
  );
  // Opening or editing any document re-checks every open one, once the edits have been quiet.
  // Only file: documents have a path to find policies from; an untitled buffer is not checked.
  const checkAll = () => debounce.call("open documents", () => publishAll(state));
  documents.onDidChangeContent(({ document }) => {
    if (documentPath(document.uri) !== undefined) checkAll();
  });
  // What the checks read from disk changed under unchanged buffers: a save, or a change outside.
  documents.onDidSave(checkAll);
  connection.onDidChangeWatchedFiles(checkAll);
  connection.onHover(({ textDocument, position }) =>
    onFileDocument(state, textDocument.uri, "hovering over", null, (document, path) =>
      hoverOf(answerContext(state), document, path, position),
    ),
  );
  connection.onCodeAction(({ textDocument, range, context }) => {
    const document = documents.get(textDocument.uri);
    const last = state.published.get(textDocument.uri);
    // Fixes are edits of the text they were computed on: none while a newer text awaits its check.
    if (document === undefined || last === undefined || last.version !== document.version) return [];
    return codeActions(textDocument.uri, last.entries, range, context.diagnostics);
  });
  documents.onDidClose(({ document }) => {
    state.published.delete(document.uri);
    state.looked.delete(document.uri);
    const path = documentPath(document.uri);
    if (path === undefined) return;
    state.memory.documents.delete(path);
    connection.sendDiagnostics({ uri: document.uri, diagnostics: [] }).catch(gone);
  });
  documents.listen(connection);
  connection.listen();
}
