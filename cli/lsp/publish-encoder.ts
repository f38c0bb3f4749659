/**
 * The JSON encoding of the server's outgoing messages (the connection's content-type encoder,
 * vscode-jsonrpc's `MessageWriterOptions.contentTypeEncoder`): the bytes are `JSON.stringify(message)`
 * written in ASCII, every character past U+007F as its `\uXXXX` escape, so `JSON.parse` of them is
 * exactly the message (the same strings: the editor shows the same text) and the client decodes a
 * one-byte string (issue 36: a publish of 15,834 findings, 10,000 of them naming "Đặng", decoded
 * and parsed about a third cheaper than its UTF-8). A `publishDiagnostics`
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
const NON_ASCII = /[\u0080-\uffff]/g;

/** `json` with every character past U+007F written as its `\uXXXX` escape (the same JSON value). */
export function asciiJson(json: string): string {
  NON_ASCII.lastIndex = 0;
  if (!NON_ASCII.test(json)) return json;
  NON_ASCII.lastIndex = 0;
  return json.replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Each diagnostic object's JSON bytes, made on its first publish. */
const bytes = new WeakMap<object, Buffer>();

function bytesOf(diagnostic: object): Buffer {
  let b = bytes.get(diagnostic);
  if (b === undefined) {
    b = Buffer.from(asciiJson(JSON.stringify(diagnostic)), "latin1");
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

/** `msg` as `JSON.stringify` writes it, in ASCII (above), a published list put together from cached parts. */
export function encodeMessage(msg: Message): Buffer {
  const list = publishedList(msg);
  if (list === undefined) return Buffer.from(asciiJson(JSON.stringify(msg)), "latin1");
  const params = (msg as unknown as { params: Record<string, unknown> }).params;
  const json = asciiJson(JSON.stringify({ ...msg, params: { ...params, diagnostics: HOLE } }));
  const at = json.indexOf(HOLE_JSON);
  const parts: Buffer[] = [Buffer.from(json.slice(0, at), "latin1"), OPEN];
  list.forEach((d, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(bytesOf(d));
  });
  parts.push(CLOSE, Buffer.from(json.slice(at + HOLE_JSON.length), "latin1"));
  return Buffer.concat(parts);
}

/** The server's content-type encoder (UTF-8 only: the protocol's charset; ASCII is UTF-8). */
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
