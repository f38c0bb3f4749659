/**
 * The in-process language server of the tests (test/cli/lsp-session.ts `start`) says any network
 * use made while it runs on its stderr, as the spawned server's preload does: the tests' empty
 * stderr is a check that the server made none, not a check that cannot fail.
 */
import dns from "node:dns";
import net from "node:net";
import { expect, test } from "vitest";
import { start, stop } from "../cli/lsp-session.js";

test("a connection and a name lookup made while the server runs are said on its stderr, then no more", async () => {
  const connect = net.Socket.prototype.connect;
  const session = await start();
  const socket = net.connect({ host: "127.0.0.1", port: 9 });
  socket.on("error", () => {});
  socket.destroy();
  await new Promise<void>((resolve) => dns.lookup("localhost", () => resolve()));
  expect(await stop(session)).toBe(0);
  expect(session.stderr()).toBe("NETWORK connect\nNETWORK lookup\n");
  // Put back as it was when the last server ended.
  expect(net.Socket.prototype.connect).toBe(connect);
});
