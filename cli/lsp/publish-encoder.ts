/**
 * The JSON encoding of the server's outgoing messages (the connection's content-type encoder,
 * vscode-jsonrpc's `MessageWriterOptions.contentTypeEncoder`). The bytes are `JSON.stringify(message)`
 * written in ASCII: every character past U+007F is written as its `\uXXXX` escape, so `JSON.parse`
 * of them is exactly the message (the same strings: the editor shows the same text), and the client
 * decodes a one-byte string (a publish of 15,834 findings of which 10,000 name "Đặng": the client's
 * decoding and parse about a third cheaper than of the UTF-8 text).
 *
 * A `publishDiagnostics` notification is put together from each diagnostic's bytes, encoded once per
 * diagnostic object and kept while that object lives. The protocol resends a document's whole list
 * at every publish; the server hands the same objects again for the findings an edit did not change
 * (server.ts), so an edit of one project of a 10,000-project file encodes the few that changed, and
 * the runs of diagnostics the list shares with the document's last publish (its start and its end)
 * are copied from that publish's bytes in one piece each, not diagnostic by diagnostic.
 * Invariant: the encoded objects and published lists are never mutated (the server builds a new
 * object and a new list for a change).
 */
import type { ContentTypeEncoder, ContentTypeEncoderOptions, Message } from "vscode-languageserver/node";

const PUBLISH = "textDocument/publishDiagnostics";
/** Stands for the diagnostics array in the message's JSON: `\u0000` is escaped, so it is unique. */
const HOLE = "\u0000diagnostics\u0000";
const HOLE_JSON = JSON.stringify(HOLE);
const COMMA = 0x2c;
const NON_ASCII = /[\u0080-\uffff]/g;
/** The last publish of at most this many documents is kept (the server publishes open documents). */
const KEPT_DOCUMENTS = 16;

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

/** A document's last published list: its objects, their bytes joined by commas, where each one ends. */
interface Published {
  readonly list: readonly object[];
  readonly items: Buffer;
  readonly ends: readonly number[];
}

/** The last publish of each document, by URI (most recent last). */
const lastPublished = new Map<string, Published>();

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

/** How many diagnostics `list` shares with `last` at its start and at its end (by identity). */
function sharedRuns(last: readonly object[], list: readonly object[]): { start: number; end: number } {
  const most = Math.min(last.length, list.length);
  let start = 0;
  while (start < most && last[start] === list[start]) start++;
  let end = 0;
  while (end < most - start && last[last.length - 1 - end] === list[list.length - 1 - end]) end++;
  return { start, end };
}

/**
 * The bytes of `list`'s diagnostics joined by commas, written into `out` at `at`, from `last`'s
 * bytes where the two lists share a run; the end of each one (relative to `at`) in `ends`.
 */
function writeItems(
  out: Buffer,
  at: number,
  list: readonly object[],
  last: Published | undefined,
  runs: { start: number; end: number },
  middle: readonly Buffer[],
): number[] {
  const ends: number[] = new Array(list.length);
  let pos = at;
  if (runs.start > 0 && last !== undefined) {
    const stop = last.ends[runs.start - 1] as number;
    last.items.copy(out, pos, 0, stop);
    for (let i = 0; i < runs.start; i++) ends[i] = last.ends[i] as number;
    pos += stop;
  }
  middle.forEach((b, k) => {
    if (pos > at) out[pos++] = COMMA;
    pos += b.copy(out, pos);
    ends[runs.start + k] = pos - at;
  });
  if (runs.end > 0 && last !== undefined) {
    const first = last.list.length - runs.end;
    const from = first === 0 ? 0 : (last.ends[first - 1] as number) + 1;
    if (pos > at) out[pos++] = COMMA;
    const shift = pos - at - from;
    pos += last.items.copy(out, pos, from);
    for (let i = 0; i < runs.end; i++)
      ends[list.length - runs.end + i] = (last.ends[first + i] as number) + shift;
  }
  return ends;
}

/** A publish's JSON bytes (ASCII), its list's part reused from the document's last publish where shared. */
function encodePublish(msg: Message, list: readonly object[]): Buffer {
  const params = (msg as unknown as { params: Record<string, unknown> }).params;
  const json = asciiJson(JSON.stringify({ ...msg, params: { ...params, diagnostics: HOLE } }));
  const at = json.indexOf(HOLE_JSON);
  const uri = typeof params.uri === "string" ? params.uri : undefined;
  const last = uri === undefined ? undefined : lastPublished.get(uri);
  const runs = last === undefined ? { start: 0, end: 0 } : sharedRuns(last.list, list);
  const middle = list.slice(runs.start, list.length - runs.end).map(bytesOf);
  // Each diagnostic's bytes and a comma between two; a shared run's bytes hold its own commas.
  let itemsLength = Math.max(0, list.length - 1);
  for (const b of middle) itemsLength += b.length;
  if (last !== undefined && runs.start > 0)
    itemsLength += (last.ends[runs.start - 1] as number) - (runs.start - 1);
  if (last !== undefined && runs.end > 0) {
    const first = last.list.length - runs.end;
    const from = first === 0 ? 0 : (last.ends[first - 1] as number) + 1;
    itemsLength += last.items.length - from - (runs.end - 1);
  }
  const head = json.slice(0, at);
  const tail = json.slice(at + HOLE_JSON.length);
  const out = Buffer.allocUnsafe(head.length + itemsLength + tail.length + 2);
  let pos = out.write(head, 0, "latin1");
  out[pos++] = 0x5b; // [
  const ends = writeItems(out, pos, list, last, runs, middle);
  const items = out.subarray(pos, pos + itemsLength);
  pos += itemsLength;
  out[pos++] = 0x5d; // ]
  out.write(tail, pos, "latin1");
  if (uri !== undefined) remember(uri, { list, items, ends });
  return out;
}

function remember(uri: string, published: Published): void {
  lastPublished.delete(uri);
  if (published.list.length === 0) return;
  lastPublished.set(uri, published);
  if (lastPublished.size > KEPT_DOCUMENTS) lastPublished.delete(lastPublished.keys().next().value as string);
}

/** `msg` as `JSON.stringify` writes it, in ASCII (see above), a published list put together from kept parts. */
export function encodeMessage(msg: Message): Buffer {
  const list = publishedList(msg);
  if (list === undefined) return Buffer.from(asciiJson(JSON.stringify(msg)), "latin1");
  return encodePublish(msg, list);
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
