/**
 * The apply journal goes through the run's one output redaction, as stdout does: a server echoing
 * another organization's key (key-shaped text the run was not given) and the run's webhook secret
 * in its error leaves no trace of either in the journal (before, the journal masked the run's API
 * keys alone) nor on the terminal (before, the client's decoding of the error masked the keys'
 * shared prefix as a run of the run's own key, and the other key's tail was left where no mask
 * found it again).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { checkJournals } from "../helpers/documents.js";
import { runCli } from "../helpers/run-cli.js";
import { EXAMPLE_FIXTURE, PARENT_KEY } from "../sandbox/helpers.js";

const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));
const OTHER = "pc_live_AnotherCountyKey9876543210";
const SECRET = "whsec_JournalSecret0123456789abcdef";

let sb: SandboxHandle;
let proxy: Server;
let baseUrl = "";
beforeAll(async () => {
  sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, rateLimits: false });
  // Forwards reads to the sandbox; every write is refused with the other key and the secret echoed.
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      if (req.method === "POST") {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: `Bad request: ${OTHER} and ${SECRET}`, code: "BAD_REQUEST" }));
        return;
      }
      const upstream = await fetch(new URL(req.url ?? "/", sb.baseUrl.replace(/\/v1$/, "")), {
        headers: { "x-api-key": String(req.headers["x-api-key"] ?? "") },
      });
      res.writeHead(upstream.status, {
        "content-type": "application/json",
        date: upstream.headers.get("date") ?? "",
      });
      res.end(await upstream.text());
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await sb.close();
});

test("apply's journal masks another key the server echoes and the run's webhook secret, as stdout does", async () => {
  const dir = mkdtempSync(join(tmpdir(), "journal-redaction-"));
  cpSync(EXAMPLES, dir, { recursive: true });
  const env = { CAMPAIGNCTL_API_KEY: PARENT_KEY, CAMPAIGNCTL_WEBHOOK_SECRET: SECRET };
  const run = await runCli(["apply", ".", "--auto-approve", "--base-url", baseUrl], {
    cwd: dir,
    env,
    clock: () => sb.clock.nowMs(),
  });
  expect(run.code).not.toBe(0);
  const journalDir = join(dir, ".campaignctl", "journal");
  const file = readdirSync(journalDir).find((f) => f.startsWith("apply-"));
  const journal = readFileSync(join(journalDir, file ?? ""), "utf8");
  checkJournals(dir);
  // The server's words reached the journal, masked.
  expect(journal).toContain("Bad request: ");
  for (const secret of [OTHER, SECRET]) expect(journal).not.toContain(secret.slice(8, 20));
  expect(`${run.stdout}${run.stderr}`).not.toContain(OTHER.slice(8, 20));
});
