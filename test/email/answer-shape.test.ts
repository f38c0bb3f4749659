/**
 * A bulk upsert answered 200 whose body does not give every row its own status (the contract says
 * every row comes back with one): a row with no result, or with a status the contract does not
 * name, may or may not have been written, so it is `unknown` (never `rejected`, which says the API
 * refused it), and an answer with no `results` array at all makes every row of the batch `unknown`
 * instead of stopping apply. Real HTTP: a proxy on loopback in front of the sandbox rewrites the
 * upsert answers.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runApply, type TestBed } from "../apply/helpers.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { admin } from "../sandbox/helpers.js";
import { CHILD_LIST, emailBed } from "./world.js";

let beds: TestBed[] = [];
let proxies: Server[] = [];
afterEach(async () => {
  for (const p of proxies) await new Promise((resolve) => p.close(resolve));
  proxies = [];
  for (const b of beds) {
    await b.close();
    rmSync(b.world.dir, { recursive: true, force: true });
  }
  beds = [];
});

/** A proxy to the sandbox that passes every answer through, the upserts' through `rewrite`. */
async function proxy(target: string, rewrite: (data: Record<string, unknown>) => unknown): Promise<string> {
  const to = new URL(target);
  const server = createServer((req, res) => {
    const upstream = request(
      { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (c: Buffer) => chunks.push(c));
        answer.on("end", () => {
          let body = Buffer.concat(chunks);
          const upsert = req.method === "POST" && /\/email\/lists\/[^/]+\/contacts$/.test(req.url ?? "");
          if (upsert && answer.statusCode === 200) {
            const doc = JSON.parse(body.toString("utf8"));
            body = Buffer.from(JSON.stringify({ ...doc, data: rewrite(doc.data) }));
          }
          const headers = { ...answer.headers, "content-length": String(body.length) };
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    req.pipe(upstream);
  });
  proxies.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${to.pathname}`;
}

const ROWS = 5;

function results(bed: TestBed): { line: number; status: string; reason: string | null }[] {
  const dir = join(bed.world.dir, ".campaignctl", "journal");
  const file = readdirSync(dir).find((f) => f.startsWith("email-"));
  return readFileSync(join(dir, file ?? ""), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

describe("an upsert answer that does not give every row its status", () => {
  test("two rows without a result and one with a status the contract does not name are unknown, never rejected", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: ROWS, texts: {} });
    beds.push(bed);
    const baseUrl = await proxy(bed.sb.baseUrl, (data) => {
      const d = data as { results: { index: number; status: string }[] };
      return {
        ...d,
        results: d.results
          .filter((r) => r.index !== 1 && r.index !== 3)
          .map((r) => (r.index === 4 ? { ...r, status: "queued" } : r)),
      };
    });
    const run = await runApply(bed, ["campaign"], { autoApprove: true, json: true, baseUrl });
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    expect((await admin(bed.sb, "GET", `/email/lists/${CHILD_LIST}`)).body.data.contacts).toHaveLength(ROWS);
    const list = JSON.parse(run.stdout).email.lists[0];
    expect(list).toMatchObject({ accepted: 2, rejected: 0, unknown: 3 });
    expect(list.diagnostics.map((d: { code: string }) => d.code)).not.toContain("email.row-rejected");
    expect(results(bed).map((r) => r.status)).toEqual([
      "accepted",
      "unknown",
      "accepted",
      "unknown",
      "unknown",
    ]);
    expect(run.code).toBe(1);
  }, 60_000);

  test("an answer with no results array: every row of the batch unknown, apply reports (no crash)", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: ROWS, texts: {} });
    beds.push(bed);
    const baseUrl = await proxy(bed.sb.baseUrl, (data) => ({ ...data, results: null }));
    const run = await runApply(bed, ["campaign"], { autoApprove: true, json: true, baseUrl });
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    const list = JSON.parse(run.stdout).email.lists[0];
    expect(list).toMatchObject({ accepted: 0, rejected: 0, unknown: ROWS });
    expect(results(bed).map((r) => r.status)).toEqual(Array(ROWS).fill("unknown"));
    expect(run.code).toBe(1);
  }, 60_000);
});
