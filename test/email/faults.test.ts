/**
 * Email list sync under faults (the sandbox's fault injection, real HTTP, virtual clock): a batch
 * written whose answer was lost is sent again with the same key and replayed, never written twice;
 * a batch that keeps failing stops the list (later rows not sent, exit 1), and a re-run finishes it
 * with the written batches replayed; a list id the API does not know (404 at its first batch) is
 * reported at the file's `id:` line and stops that list only.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { requestLog, runApply, type TestBed } from "../apply/helpers.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { admin, CHILD_KEY } from "../sandbox/helpers.js";
import { CHILD_LIST, closedAfterEach, emailBed, OTHER_LIST } from "./world.js";

const beds = closedAfterEach();

const ROUTE = "POST /email/lists/{id}/contacts";
/**
 * The rows of the child's list: two batches (1,000 and 1), so there is a batch after the one a
 * fault hits; the size is not the point (bench/email-sync.mjs syncs 100,000 rows).
 */
const ROWS = 1_001;
const childPosts = async (bed: TestBed) =>
  (await requestLog(bed.sb)).filter((r) => r.method === "POST" && r.path.includes(CHILD_LIST));
const contents = async (bed: TestBed): Promise<{ email: string }[]> =>
  (await admin(bed.sb, "GET", `/email/lists/${CHILD_LIST}`)).body.data.contacts;

const suffix = (f: string): number => Number(/-(\d+)\.jsonl$/.exec(f)?.[1] ?? 1);

function lastResults(bed: TestBed, address = "young-volunteers"): { status: string; line: number }[] {
  const dir = join(bed.world.dir, ".campaignctl", "journal");
  const file = readdirSync(dir)
    .filter((f) => new RegExp(`^email-.*-${address}(-\\d+)?\\.jsonl$`).test(f))
    .sort((a, b) => suffix(a) - suffix(b))
    .at(-1);
  return readFileSync(join(dir, file ?? ""), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

describe("email list sync under faults", () => {
  test("a list id the API does not know: 404 at the first batch, reported at the file's id: line with the CSV lines; that list stops, the other list syncs", async () => {
    // The child organization's key: its organization has email, so the API answers an unknown
    // list 404 (a key whose organization has no email gets 403 EMAIL_EARLY_ACCESS first).
    const bed = await emailBed({ campaigns: false, donors: false, childRows: ROWS, texts: {} });
    beds.push(bed);
    writeFileSync(
      join(bed.world.dir, "campaign", "ghost-email.yaml"),
      [
        "version: 1",
        "organization: Riverside Young Democrats",
        "email_lists:",
        "  ghost:",
        `    id: ${OTHER_LIST}`,
        "    csv: lists/young.csv",
        "",
      ].join("\n"),
    );
    const env = { env: { CAMPAIGNCTL_API_KEY: CHILD_KEY } };
    const run = await runApply(bed, ["campaign"], { autoApprove: true, json: true }, env);
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    expect(run.code).toBe(1);
    const doc = JSON.parse(run.stdout);
    const byAddress = Object.fromEntries(doc.email.lists.map((l: { address: string }) => [l.address, l]));
    expect(byAddress["young-volunteers"]).toMatchObject({ state: "synced", accepted: ROWS });
    expect(byAddress.ghost).toMatchObject({ state: "failed", accepted: 0, not_sent: ROWS });
    expect(byAddress.ghost.batches.map((b: { outcome: string }) => b.outcome)).toEqual(["failed"]);
    const [d] = byAddress.ghost.diagnostics;
    expect(d).toMatchObject({
      severity: "error",
      code: "email.list-not-found",
      message: `email list ghost: the API knows no email list ${OTHER_LIST} (404 NOT_FOUND at batch 1, lines 2-1001 of campaign/lists/young.csv): nothing was written to it; its rows from there on are not sent`,
      range: { file: "campaign/ghost-email.yaml", start: { line: 5, column: 9 } },
    });
    expect(d.hint).toContain("correct the id");
    // One request to the unknown list: the 404 is not retried, and its later batch is not sent.
    const ghostPosts = (await requestLog(bed.sb)).filter((r) => r.path.includes(OTHER_LIST));
    expect(ghostPosts.map((p) => p.status)).toEqual([404]);
    expect(new Set(lastResults(bed, "ghost").map((r) => r.status))).toEqual(new Set(["not-sent"]));
    expect(await contents(bed)).toHaveLength(ROWS);

    const human = await runApply(bed, ["campaign"], { autoApprove: true }, env);
    expect(human.code).toBe(1);
    expect(human.stdout + human.stderr).toContain(
      "campaign/ghost-email.yaml:5:9: error[email.list-not-found]",
    );
  }, 60_000);

  test("a lost answer: the batch is sent again with the same key and replayed, each row written once", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: ROWS });
    beds.push(bed);
    const added = await admin(bed.sb, "POST", "/faults", { spec: `${ROUTE}: commit-then-fail(500) n=1` });
    expect(added.status).toBe(200);
    const run = await runApply(bed, ["campaign"], { autoApprove: true, json: true });
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    expect(run.code, run.stderr).toBe(0);
    const list = JSON.parse(run.stdout).email.lists.find(
      (l: { address: string }) => l.address === "young-volunteers",
    );
    expect(list).toMatchObject({ state: "synced", accepted: ROWS });
    expect(list.batches.map((b: { outcome: string }) => b.outcome)).toEqual(["written", "written"]);
    const posts = await childPosts(bed);
    expect(posts.map((p) => `${p.status}${p.replayed ? " replayed" : ""}`)).toEqual([
      "500",
      "200 replayed",
      "200",
    ]);
    expect(await contents(bed)).toHaveLength(ROWS);
  }, 60_000);

  test("a batch written whose answer is lost on every send: its rows are unknown (never not-sent), the list stops, exit 1; a re-run replays it and finishes", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: ROWS, texts: {} });
    beds.push(bed);
    // The first send writes the batch and its answer is lost (500); the four resends answer 500
    // before anything happens: no answer ever says the batch was written.
    await admin(bed.sb, "POST", "/faults", { spec: `${ROUTE}: commit-then-fail(500) n=1` });
    let armed = false;
    const run = await runApply(
      bed,
      ["campaign"],
      { autoApprove: true, json: true },
      {
        beforeSleep: async () => {
          if (armed) return;
          armed = true;
          await admin(bed.sb, "POST", "/faults", { spec: `${ROUTE}: status(500) n=4` });
        },
      },
    );
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    expect((await childPosts(bed)).map((p) => p.status)).toEqual([500, 500, 500, 500, 500]);
    expect(await contents(bed)).toHaveLength(1_000);
    expect(run.code).toBe(1);
    const list = JSON.parse(run.stdout).email.lists.find(
      (l: { address: string }) => l.address === "young-volunteers",
    );
    expect(list).toMatchObject({ state: "failed", accepted: 0, unknown: 1_000, not_sent: ROWS - 1_000 });
    expect(list.batches.map((b: { outcome: string }) => b.outcome)).toEqual(["unknown"]);
    expect(list.diagnostics).toHaveLength(1);
    expect(list.diagnostics[0].message).toContain("batch 1 may or may not have been written");
    const rows = lastResults(bed);
    expect(rows.slice(0, 1_000).every((r) => r.status === "unknown")).toBe(true);
    expect(rows.slice(1_000).map((r) => r.status)).toEqual(["not-sent"]);

    const again = await runApply(bed, ["campaign"], { autoApprove: true, json: true });
    expect(again.code, again.stderr).toBe(0);
    const second = JSON.parse(again.stdout).email.lists[0];
    expect(second.batches.map((b: { outcome: string }) => b.outcome)).toEqual(["replayed", "written"]);
    expect(await contents(bed)).toHaveLength(ROWS);
    expect(lastResults(bed).every((r) => r.status === "accepted")).toBe(true);
  }, 60_000);

  test("a batch that keeps failing stops the list: its rows and the later ones not sent, exit 1; a re-run finishes", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: ROWS });
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
    expect(list).toMatchObject({ state: "failed", accepted: 0, not_sent: ROWS });
    expect(list.batches.map((b: { outcome: string }) => b.outcome)).toEqual(["failed"]);
    expect(list.diagnostics.map((d: { code: string }) => d.code)).toEqual(["email.batch-failed"]);
    expect(new Set(lastResults(bed).map((r) => r.status))).toEqual(new Set(["not-sent"]));
    expect(await contents(bed)).toHaveLength(0);

    const again = await runApply(bed, ["campaign"], { autoApprove: true, json: true });
    expect(again.code, again.stderr).toBe(0);
    expect(await contents(bed)).toHaveLength(ROWS);
    expect(lastResults(bed).every((r) => r.status === "accepted")).toBe(true);
  }, 60_000);

  test("Ctrl-C during the sync: the batch in flight finishes, no new one starts, exit 130; a re-run finishes", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: ROWS, texts: {} });
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
    expect(list).toMatchObject({ state: "failed", accepted: 1_000, not_sent: ROWS - 1_000 });
    expect((await childPosts(bed)).map((p) => p.status)).toEqual([200]);
    expect(await contents(bed)).toHaveLength(1_000);
    const again = await runApply(bed, ["campaign"], { autoApprove: true });
    expect(again.code, again.stderr).toBe(0);
    expect(await contents(bed)).toHaveLength(ROWS);
  }, 60_000);
});
