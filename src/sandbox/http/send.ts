/** Writes an ApiResponse as JSON. */
import type { ServerResponse } from "node:http";
import type { ApiResponse } from "./responses.js";

export function send(res: ServerResponse, response: ApiResponse, extra: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = JSON.stringify(response.body);
  res.writeHead(response.status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
    ...extra,
    ...(response.headers ?? {}),
  });
  res.end(text);
}
