/**
 * A scripted HTTP server on loopback for transport-level client tests (real sockets, no mocked fetch).
 * Each request takes the next scripted reply; "reset" destroys the socket, "hang" never answers.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach } from "vitest";
import { type ApiClient, createApiClient } from "../../src/api/index.js";

export type Reply =
  | {
      readonly status: number;
      readonly body: unknown;
      readonly headers?: Record<string, string>;
      readonly raw?: boolean;
    }
  | "reset"
  | "hang";

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

export interface StubServer {
  readonly baseUrl: string;
  readonly seen: SeenRequest[];
  /** Appends replies; when the script is empty every request gets `fallback`. */
  script(...replies: Reply[]): void;
  close(): Promise<void>;
}

export async function startStub(
  fallback: Reply = { status: 200, body: { success: true, data: {} } },
): Promise<StubServer> {
  const queue: Reply[] = [];
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const reply = queue.shift() ?? fallback;
      if (reply === "reset") {
        req.socket.destroy();
        return;
      }
      if (reply === "hang") return;
      const text = reply.raw ? String(reply.body) : JSON.stringify(reply.body);
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    seen,
    script: (...replies) => {
      queue.push(...replies);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fake clock whose sleep advances time after pending work has run, recording each wait. */
export function fakeTime(start = 1_700_000_000_000) {
  let t = start;
  const sleeps: number[] = [];
  return {
    clock: { now: () => t },
    sleep: async (ms: number) => {
      sleeps.push(ms);
      await new Promise((resolve) => setImmediate(resolve));
      t += ms;
    },
    sleeps,
  };
}

/** A scripted server and a client of it on fake time (no jitter), for one test at a time. */
export interface StubbedClient {
  readonly stub: StubServer;
  readonly client: ApiClient;
}

/**
 * Opens a scripted server and a client with `apiKey` before each test of the calling file, and
 * closes both after it (call it at the file's top level). The fields are the current test's.
 */
export function stubbedClient(apiKey: string): StubbedClient {
  const bed = {} as { stub: StubServer; client: ApiClient };
  beforeEach(async () => {
    bed.stub = await startStub();
    const time = fakeTime();
    bed.client = createApiClient({
      baseUrl: bed.stub.baseUrl,
      apiKey,
      clock: time.clock,
      sleep: time.sleep,
      random: () => 0,
    });
  });
  afterEach(async () => {
    await bed.client.close();
    await bed.stub.close();
  });
  return bed;
}
