/**
 * The contract: a webhook receiver answers within 10 seconds, or the attempt counts as failed. The
 * dispatcher uses the contract's figure; the mechanism is tested with a short timeout (the real
 * 10 s would cost real time), a receiver answering just inside it and one just past it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { WEBHOOK_TIMEOUT_MS } from "../../src/contract/limits.js";
import { postJson } from "../../src/sandbox/webhooks/post.js";

let server: Server;
let base = "";
beforeAll(async () => {
  server = createServer((req, res) => {
    const delay = Number(new URL(req.url ?? "/", "http://x").searchParams.get("delay") ?? "0");
    req.resume();
    setTimeout(() => res.writeHead(200).end("ok"), delay);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("webhook receiver timeout", () => {
  test("the contract's figure is 10 seconds", () => {
    expect(WEBHOOK_TIMEOUT_MS).toBe(10_000);
  });

  test.each([
    [50, { status: 200, error: null }],
    [600, { status: null, error: "timeout after 300 ms" }],
  ])("a receiver answering after %i ms with a 300 ms limit", async (delay, outcome) => {
    expect(
      await postJson(`${base}/hook?delay=${delay}`, "{}", { "content-type": "application/json" }, 300),
    ).toEqual(outcome);
  });
});
