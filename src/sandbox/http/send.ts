/** Writes an ApiResponse as JSON. */
import type { ServerResponse } from "node:http";
import type { ApiResponse } from "./responses.js";

/**
 * `date`: the answer's `Date` header (the virtual clock's, src/sandbox/http/date-header.ts), first
 * among the headers. The headers go to `writeHead` alone (no `setHeader` before it), so Node writes
 * them in one pass instead of storing each first.
 */
export function send(
  res: ServerResponse,
  response: ApiResponse,
  date: string,
  extra: Record<string, string> = {},
): void {
  if (res.destroyed) return;
  const text = JSON.stringify(response.body);
  res.writeHead(response.status, {
    date,
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
    ...extra,
    ...(response.headers ?? {}),
  });
  res.end(text);
}
