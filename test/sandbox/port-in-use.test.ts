/**
 * `campaignctl sandbox --port N` with N taken: reported like every other error (`error[code]:
 * message` and a hint, exit 1; the error document with `--json`), not a stack or a raw Node message,
 * and the command returns at once without leaving a server, timer or the other process's port behind.
 */
import { connect, createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

let occupied: Server | undefined;
afterEach(async () => {
  const server = occupied;
  occupied = undefined;
  if (server?.listening) await new Promise<void>((done) => server.close(() => done()));
});

/** Listens on a free loopback port, as another process would; returns the port. */
async function occupy(): Promise<number> {
  const server = createServer();
  occupied = server;
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** How many handles of a kind keep the process alive (servers, sockets, timers). */
function count(kind: "TCPServerWrap" | "TCPSocketWrap" | "Timeout"): number {
  return process.getActiveResourcesInfo().filter((r) => r === kind).length;
}

/**
 * Waits until no server or socket handle beyond `servers` and `sockets` is open (a handle whose
 * listen failed closes on a later turn of the event loop), for at most 100 turns; returns the counts.
 */
async function settled(servers: number, sockets: number): Promise<[number, number]> {
  for (let turn = 0; turn < 100; turn++) {
    if (count("TCPServerWrap") <= servers && count("TCPSocketWrap") <= sockets) break;
    await new Promise((done) => setImmediate(done));
  }
  return [count("TCPServerWrap"), count("TCPSocketWrap")];
}

describe("sandbox --port with the port in use", () => {
  it("prints error[cli.sandbox-unavailable] with a hint, exits 1, and leaves nothing running", async () => {
    const port = await occupy();
    const [servers, sockets, timers] = [count("TCPServerWrap"), count("TCPSocketWrap"), count("Timeout")];
    // At real speed (the default), the virtual clock would run a timer: it must be stopped too.
    const r = await runCli(["sandbox", "--port", String(port)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `error[cli.sandbox-unavailable]: --port: cannot listen on 127.0.0.1:${port}: port already in use\n` +
        `  hint: another process listens on port ${port} (another \`campaignctl sandbox\`?): stop it, or choose another port (\`--port 0\` takes any free one)\n`,
    );
    expect(await settled(servers, sockets)).toEqual([servers, sockets]);
    expect(count("Timeout")).toBeLessThanOrEqual(timers);
    // The other process's server is untouched and still the only one on the port.
    const connected = await new Promise<boolean>((done) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        done(true);
      });
      socket.once("error", () => done(false));
    });
    expect(connected).toBe(true);
  });

  it("with --json prints the error document on stdout", async () => {
    const port = await occupy();
    const r = await runCli(["sandbox", "--port", String(port), "--json"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      format_version: 1,
      error: true,
      diagnostics: [
        {
          severity: "error",
          code: "cli.sandbox-unavailable",
          message: `--port: cannot listen on 127.0.0.1:${port}: port already in use`,
          range: null,
          hint: `another process listens on port ${port} (another \`campaignctl sandbox\`?): stop it, or choose another port (\`--port 0\` takes any free one)`,
          related: [],
        },
      ],
    });
    expect(r.stderr).toContain("error[cli.sandbox-unavailable]");
  });

  it("once the port is free again, nothing of the failed start answers on it", async () => {
    const port = await occupy();
    expect((await runCli(["sandbox", "--port", String(port)])).code).toBe(1);
    const server = occupied;
    occupied = undefined;
    await new Promise<void>((done) => server?.close(() => done()));
    const refused = await new Promise<string>((done) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        done("connected");
      });
      socket.once("error", (e: NodeJS.ErrnoException) => done(e.code ?? "error"));
    });
    expect(refused).toBe("ECONNREFUSED");
  });
});
