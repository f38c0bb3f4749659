/**
 * The JSON encoding of the server's outgoing messages (the connection's content-type encoder,
 * vscode-jsonrpc's `MessageWriterOptions.contentTypeEncoder`): the bytes are exactly
 * `JSON.stringify(message)` in UTF-8, the library's own encoding, but a `publishDiagnostics`
 * notification is put together from each diagnostic's bytes, encoded once per diagnostic object
 * and kept while that object lives. The protocol resends a document's whole list at every publish;
 * the server hands the same objects again for the findings an edit did not change (server.ts), so
 * an edit of one project of a 10,000-project file encodes the few that changed, not 10,000.
 * Invariant: the encoded objects are never mutated (the server builds a new object for a change).
 */
import type { ContentTypeEncoder, ContentTypeEncoderOptions, Message } from "vscode-languageserver/node";

const PUBLISH = "textDocument/publishDiagnostics";
/** Stands for the diagnostics array in the message's JSON: `\u0000` is escaped, so it is unique. */
const HOLE = "\u0000diagnostics\u0000";
const HOLE_JSON = JSON.stringify(HOLE);
const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");

/** Each diagnostic object's JSON bytes, made on its first publish. */
const bytes = new WeakMap<object, Buffer>();

function bytesOf(diagnostic: object): Buffer {
  let b = bytes.get(diagnostic);
  if (b === undefined) {
    b = Buffer.from(JSON.stringify(diagnostic), "utf8");
    bytes.set(diagnostic, b);
  }
  return b;
}

/** The diagnostics array of a `publishDiagnostics` notification, or undefined for any other message. */
function publishedList(msg: Message): readonly object[] | undefined {
  const m = msg as { method?: unknown; id?: unknown; params?: { diagnostics?: unknown } };
  if (m.method !== PUBLISH || m.id !== undefined || typeof m.params !== "object" || m.params === null)
    return undefined;
  const list = m.params.diagnostics;
  if (!Array.isArray(list) || !list.every((d) => typeof d === "object" && d !== null && !Array.isArray(d)))
    return undefined;
  return list as object[];
}

/** `msg` as `JSON.stringify` writes it, in UTF-8, a published list put together from cached parts. */
export function encodeMessage(msg: Message): Buffer {
  const list = publishedList(msg);
  if (list === undefined) return Buffer.from(JSON.stringify(msg), "utf8");
  const params = (msg as unknown as { params: Record<string, unknown> }).params;
  const json = JSON.stringify({ ...msg, params: { ...params, diagnostics: HOLE } });
  const at = json.indexOf(HOLE_JSON);
  const parts: Buffer[] = [Buffer.from(json.slice(0, at), "utf8"), OPEN];
  list.forEach((d, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(bytesOf(d));
  });
  parts.push(CLOSE, Buffer.from(json.slice(at + HOLE_JSON.length), "utf8"));
  return Buffer.concat(parts);
}

/** The server's content-type encoder (UTF-8 only: the protocol's charset). */
export const messageEncoder: ContentTypeEncoder = {
  name: "application/json",
  encode: (msg: Message, options: ContentTypeEncoderOptions) => {
    try {
      if (options.charset !== "utf-8")
        return Promise.resolve(Buffer.from(JSON.stringify(msg), options.charset));
      return Promise.resolve(encodeMessage(msg));
    } catch (error) {
      return Promise.reject(error);
    }
  },
};
