/**
 * The language server of `campaignctl lsp`, on vscode-languageserver (JSON-RPC framing, the
 * protocol's lifecycle and text synchronisation are the library's; nothing here frames a message).
 * On open and on every change (debounced per document) it publishes validate's diagnostics for the
 * buffer's text (check-document.ts); on close it clears them. It makes no network request: the
 * only IO is the connection and reading policy files. The library's node entry point would end the
 * process itself on `exit`; this server is built on its common core with a watchdog that resolves
 * the returned promise instead, so cli/main.ts stays the only place that exits.
 */
import { fileURLToPath } from "node:url";
import {
  createConnection,
  type InitializeResult,
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
import { VERSION } from "../version.js";
import { checkDocument, type DocumentCheckContext } from "./check-document.js";
import { debouncer, type Schedule } from "./debounce.js";
import { toLspDiagnostic } from "./lsp-diagnostic.js";

/** What the server is given: its streams, the check's context, the debounce delay and timer. */
export interface ServerOptions {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  /** The context of each check, taken when the check runs (so a clock-based `now` is fresh). */
  readonly context: () => DocumentCheckContext;
  readonly debounceMs: number;
  readonly schedule: Schedule;
  /** Where the server logs a check that threw (a bug), instead of crashing. */
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

    const publish = (uri: string): void => {
      const document = documents.get(uri);
      if (document === undefined || ended) return;
      const path = fileURLToPath(uri);
      let diagnostics: ReturnType<typeof toLspDiagnostic>[];
      try {
        diagnostics = checkDocument(path, document.getText(), options.context()).map((d) =>
          toLspDiagnostic(d, path),
        );
      } catch (error) {
        options.log(`campaignctl lsp: checking ${path} failed: ${String(error)}\n`);
        return;
      }
      void connection.sendDiagnostics({ uri, version: document.version, diagnostics });
    };

    connection.onInitialize(
      (): InitializeResult => ({
        capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental },
        serverInfo: { name: "campaignctl", version: VERSION },
      }),
    );
    documents.onDidChangeContent(({ document }) => {
      // Only file: documents have a path to find policies from; an untitled buffer is not checked.
      if (!document.uri.startsWith("file:")) return;
      debounce.call(document.uri, () => publish(document.uri));
    });
    documents.onDidClose(({ document }) => {
      debounce.cancel(document.uri);
      if (document.uri.startsWith("file:"))
        void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
    });
    documents.listen(connection);
    connection.listen();
  });
}
