/**
 * Email list sync under faults (the sandbox's fault injection, real HTTP, virtual clock): a batch
 * written whose answer was lost is sent again with the same key and replayed, never written twice;
 * a batch that keeps failing stops the list (later rows not sent, exit 1), and a re-run finishes it
 * with the written batches replayed.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { requestLog, runApply, type TestBed } from "../apply/helpers.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { admin } from "../sandbox/helpers.js";
import { CHILD_LIST, emailBed } from "./world.js";

let beds: TestBed[] = [];
afterEach(async () => {
  for (const b of beds) {
    await b.close();
    rmSync(b.world.dir, { recursive: true, force: true });
  }
  beds = [];
});

const ROUTE = "POST /email/lists/{id}/contacts";
const childPosts = async (bed: TestBed) =>
  (await requestLog(bed.sb)).filter((r) => r.method === "POST" && r.path.includes(CHILD_LIST));
const contents = async (bed: TestBed): Promise<{ email: string }[]> =>
  (await admin(bed.sb, "GET", `/email/lists/${CHILD_LIST}`)).body.data.contacts;

const suffix = (f: string): number => Number(/-(\d+)\.jsonl$/.exec(f)?.[1] ?? 1);

function lastResults(bed: TestBed): { status: string; line: number }[] {
  const dir = join(bed.world.dir, ".campaignctl", "journal");
  const file = readdirSync(dir)
    .filter((f) => /^email-.*-young-volunteers(-\d+)?\.jsonl$/.test(f))
    .sort((a, b) => suffix(a) - suffix(b))
    .at(-1);
  return readFileSync(join(dir, file ?? ""), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

describe("email list sync under faults", () => {
  test("a lost answer: the batch is sent again with the same key and replayed, each row written once", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 2_500 });
    beds.push(bed);
    const added = await admin(bed.sb, "POST", "/faults", { spec: `${ROUTE}: commit-then-fail(500) n=1` });
    expect(added.status).toBe(200);
    const run = await runApply(bed, ["campaign"], { autoApprove: true, json: true });
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    expect(run.code, run.stderr).toBe(0);
    const list = JSON.parse(run.stdout).email.lists.find(
      (l: { address: string }) => l.address === "young-volunteers",
    );
    expect(list).toMatchObject({ state: "synced", accepted: 2_500 });
    expect(list.batches.map((b: { outcome: string }) => b.outcome)).toEqual([
      "written",
      "written",
      "written",
    ]);
    const posts = await childPosts(bed);
    expect(posts.map((p) => `${p.status}${p.replayed ? " replayed" : ""}`)).toEqual([
      "500",
      "200 replayed",
      "200",
      "200",
    ]);
    expect(await contents(bed)).toHaveLength(2_500);
  }, 60_000);

  test("a batch that keeps failing stops the list: its rows and the later ones not sent, exit 1; a re-run finishes", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 2_500 });
    beds.push(bed);
    // The first batch is refused (400): never sent again; the list stops there.
    await admin(bed.sb, "POST", "/faults", { spec: `${ROUTE}: status(400) n=1` });
    const run = await runApply(bed, ["campaign"], { autoApprove: true, json: true });
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    expect((await childPosts(bed)).map((p) => p.status)).toEqual([400]);
    expect(run.code).toBe(1);
    const list = JSON.parse(run.stdout).email.lists.find(
      (l: { address: string }) => l.address === "young-volunteers",
    );
    expect(list).toMatchObject({ state: "failed", accepted: 0, not_sent: 2_500 });
    expect(list.batches.map((b: { outcome: string }) => b.outcome)).toEqual(["failed"]);
    expect(list.diagnostics.map((d: { code: string }) => d.code)).toEqual(["email.batch-failed"]);
    expect(new Set(lastResults(bed).map((r) => r.status))).toEqual(new Set(["not-sent"]));
    expect(await contents(bed)).toHaveLength(0);

    const again = await runApply(bed, ["campaign"], { autoApprove: true, json: true });
    expect(again.code, again.stderr).toBe(0);
    expect(await contents(bed)).toHaveLength(2_500);
    expect(lastResults(bed).every((r) => r.status === "accepted")).toBe(true);
  }, 60_000);

  test("Ctrl-C during the sync: the batch in flight finishes, no new one starts, exit 130; a re-run finishes", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 2_500, texts: {} });
    beds.push(bed);
    const run = await runApply(
      bed,
      ["campaign"],
      { autoApprove: true, json: true },
      { interruptOnFirstPost: true },
    );
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    expect(run.code).toBe(130);
    const list = JSON.parse(run.stdout).email.lists[0];
    expect(list).toMatchObject({ state: "failed", accepted: 1_000, not_sent: 1_500 });
    expect((await childPosts(bed)).map((p) => p.status)).toEqual([200]);
    expect(await contents(bed)).toHaveLength(1_000);
    const again = await runApply(bed, ["campaign"], { autoApprove: true });
    expect(again.code, again.stderr).toBe(0);
    expect(await contents(bed)).toHaveLength(2_500);
  }, 60_000);
});
