/**
 * Redaction that holds (issue 23, item 6; issue 34, point 9): an evil server on loopback answers
 * every request with the API key echoed back, transformed (upper-cased, lower-cased, only its tail,
 * split across a line break, embedded in JSON and HTML; and encoded: base64 and base64url with the
 * key at each of the three alignments inside a longer encoded text, hex in either case,
 * percent-encoded), in each of the contract's error shapes and in a body in none of them. `plan` (text and --json, with --out) and `apply` (which keeps a journal) run
 * against it: no trace of the key (no run of 8 of its characters, in any case, across line breaks)
 * is in any output, report, journal or other file. The listener, fed a signed event whose text
 * carries its signing secret the same ways, prints none of it either.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startWebhooksListener } from "../../cli/commands/webhooks-listen.js";
import { signBody } from "../../src/sandbox/webhooks/signature.js";
import { captureIo, runCli } from "../helpers/run-cli.js";
import { campaignFile, fileProject, tempDir } from "../plan-command/fixture-builder.js";
import { post, START_MS, unixSeconds } from "../webhooks/harness.js";

const KEY = "pc_live_Q7xLm2Vb9RtKw4Zp8NcY3";
const SECRET = "whsec_Evil0123456789AbCdEfGhIj";

/** The five ways a server gives the key back. */
const TRANSFORMS: Record<string, (key: string) => string> = {
  upper: (k) => k.toUpperCase(),
  lower: (k) => k.toLowerCase(),
  tail: (k) => k.slice(-12),
  "line break": (k) => `${k.slice(0, 11)}\n${k.slice(11)}`,
  "JSON and HTML": (k) => `<html><body><pre>{"key":"${k}"}</pre></body></html>`,
};

/** What the evil server answers in each error shape, for one transform of the key. */
const SHAPES: Record<string, (echo: string) => { status: number; body: string; type: string }> = {
  standard: (echo) => ({
    status: 400,
    type: "application/json",
    body: JSON.stringify({
      error: `Bad request for key ${echo}`,
      code: `BAD_${echo}`,
      correlationId: echo,
      details: [{ code: "custom", path: [echo], message: `field ${echo}` }],
    }),
  }),
  auth: (echo) => ({
    status: 401,
    type: "application/json",
    body: JSON.stringify({ error: `Unauthorized ${echo}`, message: `The key ${echo} is revoked` }),
  }),
  "rate limit": (echo) => ({
    status: 429,
    type: "application/json",
    body: JSON.stringify({
      success: false,
      error: "Too Many Requests",
      message: `Slow down, ${echo}`,
      code: "RATE_LIMIT_EXCEEDED",
      statusCode: 429,
      retryAfter: 0,
    }),
  }),
  "no shape": (echo) => ({ status: 418, type: "text/html", body: `<h1>Teapot</h1><p>${echo}</p>` }),
};

/**
 * The encoded echoes: `lead` + key + `"` encoded, and the part of the encoding that only the key's
 * bytes make (what must not be shown): base64's whole groups of 3 bytes inside the key, hex's and
 * percent-encoding's characters of the key's bytes. Leads of 4, 5 and 6 bytes put the key at each
 * alignment of base64's groups.
 */
const ENCODED: Record<
  string,
  { encode: (bytes: Buffer) => string; part: (lead: number, key: number) => [number, number] }
> = {
  base64: {
    encode: (b) => b.toString("base64"),
    part: (l, k) => [4 * Math.ceil(l / 3), 4 * Math.floor((l + k) / 3)],
  },
  base64url: {
    encode: (b) => b.toString("base64url"),
    part: (l, k) => [4 * Math.ceil(l / 3), 4 * Math.floor((l + k) / 3)],
  },
  hex: { encode: (b) => b.toString("hex"), part: (l, k) => [2 * l, 2 * (l + k)] },
  HEX: { encode: (b) => b.toString("hex").toUpperCase(), part: (l, k) => [2 * l, 2 * (l + k)] },
  percent: {
    encode: (b) => [...b].map((x) => `%${x.toString(16).toUpperCase().padStart(2, "0")}`).join(""),
    part: (l, k) => [3 * l, 3 * (l + k)],
  },
};
const LEADS = ["key=", "key=x", "key=xy"];
for (const [name, { encode }] of Object.entries(ENCODED))
  for (const lead of LEADS)
    TRANSFORMS[`${name}, after ${lead.length} bytes`] = (k) => encode(Buffer.from(`${lead}${k}"`));

/** What of an echo must not be shown: the key, or the part of its encoding only the key makes. */
function secretPart(transform: string): string {
  const [name, after] = transform.split(", after ");
  const codec = ENCODED[name ?? ""];
  if (codec === undefined || after === undefined) return KEY;
  const lead = LEADS.find((l) => `${l.length} bytes` === after) ?? "";
  const [from, to] = codec.part(lead.length, KEY.length);
  return codec.encode(Buffer.from(`${lead}${KEY}"`)).slice(from, to);
}

let server: Server;
let baseUrl = "";
let answer: { status: number; body: string; type: string } = { status: 500, body: "", type: "text/plain" };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const echo = TRANSFORMS.upper?.(String(req.headers["x-api-key"] ?? "")) ?? "";
      res.writeHead(answer.status, {
        "content-type": answer.type,
        "x-echo": echo.replace(/\n/g, " "),
        ...(answer.status === 429 ? { "retry-after": "0" } : {}),
      });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

/** Every file under `dir`, as text. */
function allFiles(dir: string): string {
  return readdirSync(dir)
    .map((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? allFiles(path) : readFileSync(path, "utf8");
    })
    .join("\n");
}

/** The runs of 8 characters of `secret` found in `text` (any case, whitespace and `\n` escapes ignored). */
function traces(text: string, secret: string): string[] {
  const flat = text
    .replace(/\\[nrt]/g, "")
    .replace(/\s+/g, "")
    .toLowerCase();
  const s = secret.toLowerCase();
  const found: string[] = [];
  for (let i = 0; i + 8 <= s.length; i++) if (flat.includes(s.slice(i, i + 8))) found.push(s.slice(i, i + 8));
  return found;
}

describe("an evil server echoing the API key", () => {
  const cases = Object.keys(TRANSFORMS).flatMap((transform) =>
    Object.keys(SHAPES).map((shape) => ({ transform, shape })),
  );
  test.each(cases)(
    "$transform, in the $shape shape: no trace of the key in any output or file",
    async ({ transform, shape }) => {
      const echo = TRANSFORMS[transform]?.(KEY) ?? "";
      answer = SHAPES[shape]?.(echo) ?? answer;
      const dir = tempDir({ "campaign.yaml": campaignFile({ one: fileProject(1) }) });
      const env = { CAMPAIGNCTL_API_KEY: KEY, CAMPAIGNCTL_BASE_URL: baseUrl };
      const runs = [
        await runCli(["plan", "--out", "plan.json"], { cwd: dir, env }),
        await runCli(["plan", "--json"], { cwd: dir, env }),
        await runCli(["apply", "--auto-approve"], { cwd: dir, env }),
      ];
      for (const r of runs) expect(r.code).not.toBe(0);
      const output = runs.map((r) => `${r.stdout}\n${r.stderr}`).join("\n");
      expect(traces(`${output}\n${allFiles(dir)}`, secretPart(transform))).toEqual([]);
      // The words of the standard and rate-limit shapes reach the user, the key masked; the others
      // are reduced to the contract's fields (a 401 says the key was refused, in our words).
      // (Masked as the redactor's mark, or as `*` where the key stands whole: key-shaped text.)
      if (shape === "standard" || shape === "rate limit") expect(output).toMatch(/\[redacted\]|\*{8,}/);
      else expect(output).not.toContain("Teapot");
    },
  );
});

describe("a signed event carrying the listener's secret", () => {
  test("is printed (text and JSON) with every trace of the secret masked", async () => {
    for (const json of [true, false]) {
      const dir = tempDir({});
      const io = captureIo({ env: { NO_COLOR: "1", WH: SECRET }, cwd: dir, clock: () => START_MS });
      const started = await startWebhooksListener(
        { port: 0, host: "127.0.0.1", secretEnv: ["WH"], json, state: "state" },
        io,
      );
      if (!started.ok) throw new Error(io.err());
      const { listener } = started;
      let n = 0;
      for (const [name, transform] of Object.entries(TRANSFORMS)) {
        const body = Buffer.from(
          JSON.stringify({
            conversation_id: "c-1",
            message_id: `in-${++n}`,
            from: "+15035550110",
            to: "+15035550101",
            text: `${name}: ${transform(SECRET)}`,
            is_opt_out: false,
            is_opt_in: false,
          }),
        );
        const sent = await post(listener.url, {
          headers: {
            "content-type": "application/json",
            "x-webhook-signature": signBody(SECRET, body),
            "x-event-type": "message.replied",
            "x-event-id": `evt_${transform(SECRET).replace(/\W/g, "").slice(0, 30)}`,
            "x-timestamp": unixSeconds(START_MS),
          },
          body,
        });
        expect(sent.status).toBe(200);
      }
      await listener.stop();
      expect(io.out()).toContain("[redacted]");
      expect(traces(`${io.out()}\n${io.err()}`, SECRET)).toEqual([]);
    }
  });
});
