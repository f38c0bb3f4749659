// The floor of bench/sandbox-throughput.mjs: a bare `node:http` server that answers every request
// with the same status, headers and body the sandbox answered for GET /v1/projects/{id}, and does
// nothing else (no routing, no key check, no log). Not part of campaignctl.
//
//   node bench/sandbox-floor.mjs <answer.json>   # {status, headers, body}: serve those bytes
//   node bench/sandbox-floor.mjs                 # capture the answer from an in-process sandbox first
//
// Prints one JSON line, {"url": "http://127.0.0.1:<port>"}, once listening; runs until killed.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

/** Asks a fresh in-process sandbox (built code) for the project the throughput bench reads. */
export async function captureAnswer() {
  const { startSandbox } = await import("../dist/src/sandbox/index.js");
  const sb = await startSandbox({ rateLimits: false });
  try {
    const key = sb.keys.find((k) => k.type === "read-write")?.key;
    const res = await fetch(`${sb.baseUrl}/projects/9a000000-0000-4000-8000-000000000001`, {
      headers: { "x-api-key": key },
    });
    const body = await res.text();
    const headers = {};
    for (const [name, value] of res.headers) {
      if (name !== "connection" && name !== "keep-alive" && name !== "transfer-encoding")
        headers[name] = value;
    }
    return { status: res.status, headers, body };
  } finally {
    await sb.close();
  }
}

/** Serves `answer` on loopback; resolves with the server and its root URL. */
export function serveFloor(answer) {
  const body = Buffer.from(answer.body);
  const headers = { ...answer.headers, "content-length": String(body.length) };
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(answer.status, headers);
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, url: `http://127.0.0.1:${server.address().port}` }),
    );
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  const answer = file ? JSON.parse(readFileSync(file, "utf8")) : await captureAnswer();
  const { url } = await serveFloor(answer);
  console.log(JSON.stringify({ url }));
}
