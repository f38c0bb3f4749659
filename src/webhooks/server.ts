/**
 * The listener's HTTP edge (node:http): collects each POST's raw body bytes (any path; at most
 * {@link MAX_BODY_BYTES}) and answers what the receiver says once
 * it says it (after the event is on disk). Other methods get 405, a
 * larger body 413; both are reported through the receiver like any refusal.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import type { Answer, Receiver } from "./receiver.js";

/** The largest body the listener reads: 1 MiB (the API's events are a few hundred bytes). */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface ListenerServer {
  /** `http://host:port`, with the port actually bound (for `--port 0`). */
  readonly url: string;
  readonly port: number;
  /** Stops accepting, closes open connections and resolves when the server is closed. */
  close(): Promise<void>;
}

/** Why the server could not listen: the error code (EADDRINUSE, EACCES, EADDRNOTAVAIL, ...) and message. */
export interface ListenFailure {
  readonly code: string | null;
  readonly message: string;
}

export function startListenerServer(
  receiver: Receiver,
  host: string,
  port: number,
): Promise<{ ok: true; server: ListenerServer } | { ok: false; failure: ListenFailure }> {
  const server = createServer((req, res) => handle(receiver, req, res));
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      resolve({ ok: false, failure: { code: error.code ?? null, message: error.message } });
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      const bound = (server.address() as AddressInfo).port;
      const shownHost = host.includes(":") ? `[${host}]` : host;
      resolve({ ok: true, server: handleOf(server, `http://${shownHost}:${bound}`, bound) });
    });
  });
}

function handleOf(server: Server, url: string, port: number): ListenerServer {
  return {
    url,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function handle(receiver: Receiver, req: IncomingMessage, res: ServerResponse): void {
  const headers = headerMap(req.headers);
  if (req.method !== "POST") {
    req.resume();
    send(res, receiver.refuse("method-not-allowed", headers, `${req.method ?? "?"} is not POST`), {
      allow: "POST",
    });
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on("data", (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      over = true;
      chunks.length = 0;
      send(res, receiver.refuse("body-too-large", headers, `The body is over ${MAX_BODY_BYTES} bytes`), {
        connection: "close",
      });
      return;
    }
    chunks.push(chunk);
  });
  req.on("end", () => {
    if (over) return;
    // A delivery of a few hundred bytes comes in one chunk (node:http's own copy): taken as it is.
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
    receiver.receive({ headers, body }).then(
      (answer) => send(res, answer),
      () => send(res, { status: 500, body: '{"received":false}' }),
    );
  });
  req.on("error", () => {
    // The sender went away mid-body: nothing was received, nothing to answer.
  });
}

/** The headers of every answer (one object: node:http only reads it). */
const JSON_HEADERS: Readonly<Record<string, string>> = { "content-type": "application/json" };

function send(res: ServerResponse, answer: Answer, extra?: Record<string, string>): void {
  if (res.headersSent) return;
  res.writeHead(answer.status, extra === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...extra });
  res.end(answer.body);
}

/** node:http's headers (lower case) as single strings; a repeated header's values joined with ", ". */
function headerMap(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = Object.create(null);
  for (const name in headers) {
    const value = headers[name];
    out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
