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
import { fileURLToPath } from "node:url";
import {
  CodeActionKind,
  createConnection,
  type InitializeResult,
  MarkupKind,
  MessageType,
  type Position,
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
import { organizationIn } from "../../src/plan/snapshot.js";
import type { ReadCache } from "../adapters/campaign-files.js";
import { VERSION } from "../version.js";
import {
  addressesAround,
  checkDocument,
  checkMemory,
  type DocumentCheckContext,
  isCampaignDocument,
} from "./check-document.js";
import { codeActions, type PublishedDiagnostic } from "./code-actions.js";
import { type CompletionSources, completionsAt } from "./completion.js";
import { debouncer, type Schedule } from "./debounce.js";
import { documentFacts } from "./document-facts.js";
import { fixEdits, scalarsOf } from "./fix-edits.js";
import { hoverAt } from "./hover.js";
import { internalErrorDiagnostic, type ServerTask } from "./internal-error.js";
import { lspRange, toLspDiagnostic } from "./lsp-diagnostic.js";
import { mergeFieldsOf, namesOf } from "./snapshot-names.js";
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
    // A write that fails means the editor has gone: the input's end ends the session.
    const gone = (): void => {};
    const connection = createConnection(
      (logger) =>
        createProtocolConnection(
          new StreamMessageReader(options.input),
          new StreamMessageWriter(options.output),
          logger,
        ),
      watchDog,
    );
    options.input.on("end", () => end(watchDog.shutdownReceived ? "clean" : "unclean"));
    options.input.on("close", () => end(watchDog.shutdownReceived ? "clean" : "unclean"));
    const documents = new TextDocuments(TextDocument);

    /** Workspace folders (absolute paths), from `initialize`. */
    let folders: string[] = [];
    const cache = new Map<string, FileCheck>();
    const reads: ReadCache = new Map();
    const memory = checkMemory();
    const snapshotFor = snapshotCache();
    /** Said once a session: completion of names needs a snapshot, and how to make one. */
    let saidNoSnapshot = false;
    const sayNoSnapshot = (path: string): void => {
      if (saidNoSnapshot) return;
      saidNoSnapshot = true;
      // A notification (no answer awaited, no buttons): said once, then silence.
      connection
        .sendNotification(ShowMessageNotification.type, {
          type: MessageType.Info,
          message: `campaignctl: no offline snapshot (.campaignctl/snapshot.json) above ${path}, so names of lists, numbers, brands and registrations are not completed. Run \`campaignctl plan\` (or \`campaignctl import\`) on these files once to write it; editing never uses the network.`,
        })
        .catch(gone);
    };
    /** What was last published for each open document, with each diagnostic's fixes as edits. */
    const published = new Map<string, { version: number; entries: PublishedDiagnostic[] }>();
    let loadedSchema: Record<string, unknown> | undefined;
    const schema = (): Record<string, unknown> => {
      loadedSchema ??= campaignSchema();
      return loadedSchema;
    };

    /** The workspace folder holding `path` (the deepest), or undefined. */
    const folderOf = (path: string): string | undefined =>
      folders
        .filter((f) => path === f || path.startsWith(f.endsWith(sep) ? f : `${f}${sep}`))
        .sort((a, b) => b.length - a.length)[0];

    const publish = (document: TextDocument, buffers: ReadonlyMap<string, string>): void => {
      const path = fileURLToPath(document.uri);
      const folder = folderOf(path);
      let entries: PublishedDiagnostic[];
      try {
        const text = document.getText();
        const found = checkDocument(
          path,
          text,
          options.context(),
          folder === undefined ? undefined : { folder, buffers, cache, reads },
          memory,
        );
        // The fixes' edits are made when the editor asks for them (a second parse of the text).
        let scalars: ReturnType<typeof scalarsOf> | undefined;
        entries = found.map((d) => ({
          lsp: toLspDiagnostic(d, path),
          fixes: () => {
            if (d.range?.file !== path || d.fixes === undefined) return [];
            scalars ??= scalarsOf(text);
            return fixEdits(text, d, scalars);
          },
        }));
      } catch (error) {
        failed(document, path, "checking", error);
        return;
      }
      send(document.uri, document.version, entries);
    };
    const send = (uri: string, version: number, entries: PublishedDiagnostic[]): void => {
      published.set(uri, { version, entries });
      connection.sendDiagnostics({ uri, version, diagnostics: entries.map((e) => e.lsp) }).catch(gone);
    };
    /**
     * A bug met on `document` is never silent: logged, and shown on the document as
     * `lsp.internal-error` (with the findings last published for it, when a completion or a hover
     * failed: they still stand).
     */
    const failed = (document: TextDocument, path: string, task: ServerTask, error: unknown): void => {
      options.log(`campaignctl lsp: ${task} ${path} failed: ${String(error)}\n`);
      const failure = {
        lsp: toLspDiagnostic(internalErrorDiagnostic(path, task, error), path),
        fixes: () => [],
      };
      const last = task === "checking" ? undefined : published.get(document.uri);
      send(document.uri, last?.version ?? document.version, [...(last?.entries ?? []), failure]);
    };

    /** Every open file document, checked against the others' buffers (an edit in one may change another's). */
    const publishAll = (): void => {
      if (ended) return;
      const open = documents.all().filter((d) => d.uri.startsWith("file:"));
      const buffers = new Map(open.map((d) => [fileURLToPath(d.uri), d.getText()]));
      for (const document of open) publish(document, buffers);
    };

    connection.onInitialize((params): InitializeResult => {
      const uris = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
      folders = uris.filter((u) => u.startsWith("file:")).map((u) => fileURLToPath(u));
      return {
        capabilities: {
          textDocumentSync: TextDocumentSyncKind.Incremental,
          completionProvider: { triggerCharacters: ["[", ","] },
          hoverProvider: true,
          codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        },
        serverInfo: { name: "campaignctl", version: VERSION },
      };
    });
    connection.onCompletion(({ textDocument, position }) => {
      const document = documents.get(textDocument.uri);
      if (document === undefined || !document.uri.startsWith("file:")) return [];
      const path = fileURLToPath(document.uri);
      try {
        return completionsOf(document, path, position);
      } catch (error) {
        failed(document, path, "completing", error);
        return [];
      }
    });
    const completionsOf = (document: TextDocument, path: string, position: Position) => {
      const text = document.getText();
      if (!isCampaignDocument(path, text)) return [];
      const folder = folderOf(path);
      const buffers = new Map(
        documents
          .all()
          .filter((d) => d.uri.startsWith("file:"))
          .map((d) => [fileURLToPath(d.uri), d.getText()]),
      );
      const workspace = folder === undefined ? undefined : { folder, buffers, cache, reads };
      const addresses = addressesAround(path, text, workspace, memory);
      const facts = documentFacts(text);
      const found = snapshotFor(path, folder);
      const org = found.kind === "found" ? organizationIn(found.snapshot, facts.organization) : undefined;
      const sources: CompletionSources = {
        schema: schema(),
        addresses,
        mergeFields: mergeFieldsOf(facts, org),
        names: (key) => {
          if (found.kind === "missing") {
            sayNoSnapshot(path);
            return [];
          }
          return org === undefined ? [] : namesOf(org, key);
        },
      };
      return completionsAt(text, position.line, position.character, sources);
    };
    // Opening or editing any document re-checks every open one, once the edits have been quiet.
    // Only file: documents have a path to find policies from; an untitled buffer is not checked.
    documents.onDidChangeContent(({ document }) => {
      if (document.uri.startsWith("file:")) debounce.call("open documents", publishAll);
    });
    connection.onHover(({ textDocument, position }) => {
      const document = documents.get(textDocument.uri);
      if (document === undefined || !document.uri.startsWith("file:")) return null;
      const path = fileURLToPath(document.uri);
      try {
        return hoverOf(document, path, position);
      } catch (error) {
        failed(document, path, "hovering over", error);
        return null;
      }
    });
    const hoverOf = (document: TextDocument, path: string, position: Position) => {
      const text = document.getText();
      if (!isCampaignDocument(path, text)) return null;
      const found = snapshotFor(path, folderOf(path));
      const named = documentFacts(text).organization;
      const organization = found.kind === "found" ? organizationIn(found.snapshot, named) : undefined;
      const missing =
        found.kind === "missing"
          ? "no offline snapshot; run `campaignctl plan` on these files once to write it"
          : organization === undefined
            ? `the offline snapshot has no organization ${named === undefined ? "for this file" : `\`${named}\``}`
            : undefined;
      const hover = hoverAt(path, text, document.offsetAt(position), {
        ...(organization === undefined ? {} : { organization }),
        ...(missing === undefined ? {} : { missing }),
      });
      if (hover === undefined) return null;
      return { contents: { kind: MarkupKind.Markdown, value: hover.markdown }, range: lspRange(hover.range) };
    };
    connection.onCodeAction(({ textDocument, range, context }) => {
      const document = documents.get(textDocument.uri);
      const last = published.get(textDocument.uri);
      // Fixes are edits of the text they were computed on: none while a newer text awaits its check.
      if (document === undefined || last === undefined || last.version !== document.version) return [];
      return codeActions(textDocument.uri, last.entries, range, context.diagnostics);
    });
    documents.onDidClose(({ document }) => {
      published.delete(document.uri);
      if (document.uri.startsWith("file:")) memory.documents.delete(fileURLToPath(document.uri));
      if (document.uri.startsWith("file:"))
        connection.sendDiagnostics({ uri: document.uri, diagnostics: [] }).catch(gone);
    });
    documents.listen(connection);
    connection.listen();
  });
}
