/**
 * Email lists through a saved plan (in-process CLI, real HTTP on loopback, the sandbox's virtual
 * clock): `plan --out` records each list's id, CSV, the CSV's sha256 and counts; `apply PLANFILE`
 * syncs exactly as `apply` does (batches counted in the sandbox's request log, per-row results equal
 * to the list's contents), a re-run replays, and a CSV edited after the plan refuses the whole plan
 * before any request.
 */
import { createHash } from "node:crypto";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { PlanFlags } from "../../cli/commands/plan.js";
import { requestLog, runApply, type TestBed } from "../apply/helpers.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { admin } from "../sandbox/helpers.js";
import { CHILD_LIST, closedAfterEach, emailBed, planWorld } from "./world.js";

const beds = closedAfterEach();

const CSV = join("campaign", "lists", "young.csv");

async function planOut(
  bed: TestBed,
  flags: Partial<PlanFlags> = {},
): Promise<{ code: number; stderr: string }> {
  const { code, stderr } = await planWorld(bed, { out: "plan.json", ...flags });
  checkCliDocuments(["plan", "campaign", "--out", "plan.json"], "", bed.world.dir);
  return { code, stderr };
}

const upserts = async (bed: TestBed) =>
  (await requestLog(bed.sb)).filter((r) => r.method === "POST" && r.path.includes("/email/lists/"));

function rowResults(bed: TestBed): { email: string; status: string }[] {
  const dir = join(bed.world.dir, ".campaignctl", "journal");
  return readdirSync(dir)
    .filter((f) => f.startsWith("email-") && f.endsWith("-young-volunteers.jsonl"))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, f), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    );
}

async function contents(bed: TestBed): Promise<{ email: string }[]> {
  return (await admin(bed.sb, "GET", `/email/lists/${CHILD_LIST}`)).body.data.contacts;
}

describe("apply PLANFILE: email lists", () => {
  test("the saved plan records the CSV's sha256 and counts; apply PLANFILE syncs 2,001 rows in 3 batches, results equal the list; a re-run replays", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 2_001 });
    beds.push(bed);
    const planned = await planOut(bed);
    expect(planned.code, planned.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(join(bed.world.dir, "plan.json"), "utf8"));
    const digest = createHash("sha256")
      .update(readFileSync(join(bed.world.dir, CSV)))
      .digest("hex");
    expect(saved.email.lists).toEqual([
      expect.objectContaining({
        address: "young-volunteers",
        list_id: CHILD_LIST,
        csv: "campaign/lists/young.csv",
        sha256: digest,
        state: "sync",
        rows: 2_001,
        to_send: 2_001,
        refused: 0,
        batches: 3,
      }),
    ]);
    expect(await upserts(bed)).toHaveLength(0);

    const run = await runApply(bed, ["plan.json"], { json: true });
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("does not sync email lists");
    const doc = JSON.parse(run.stdout);
    expect(doc.actions.map((a: { status: string }) => a.status)).toEqual(["done"]);
    const [list] = doc.email.lists;
    expect(list).toMatchObject({ address: "young-volunteers", state: "synced", accepted: 2_001 });
    expect(list.batches.map((b: { outcome: string }) => b.outcome)).toEqual([
      "written",
      "written",
      "written",
    ]);
    const first = await upserts(bed);
    expect(first.map((r) => r.path)).toEqual(Array(3).fill(`/email/lists/${CHILD_LIST}/contacts`));
    const accepted = rowResults(bed).filter((r) => r.status === "accepted");
    expect(accepted).toHaveLength(2_001);
    const listed = await contents(bed);
    expect(new Set(listed.map((c) => c.email))).toEqual(new Set(accepted.map((r) => r.email)));

    // Again: the project is already applied and every batch replays (same keys, nothing written).
    const again = await runApply(bed, ["plan.json"], { json: true });
    checkCliDocuments(["apply", "--json"], again.stdout, bed.world.dir);
    expect(again.code, again.stderr).toBe(0);
    const second = JSON.parse(again.stdout);
    expect(second.actions.map((a: { status: string }) => a.status)).toEqual(["replayed"]);
    expect(second.email.lists[0].batches.map((b: { outcome: string }) => b.outcome)).toEqual(
      Array(3).fill("replayed"),
    );
    const replays = (await upserts(bed)).slice(3);
    expect(replays).toHaveLength(3);
    expect(replays.every((r) => r.replayed)).toBe(true);
    expect(await contents(bed)).toHaveLength(listed.length);
  });

  test("Ctrl-C while a re-run of an applied plan replays its lists: the batch in flight finishes, no new one starts, the report is written, exit 130", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 2_001 });
    beds.push(bed);
    expect((await planOut(bed)).code).toBe(0);
    const first = await runApply(bed, ["plan.json"], { json: true });
    expect(first.code, first.stderr).toBe(0);
    expect(await upserts(bed)).toHaveLength(3);

    // The re-run's first POST is the list's first batch (the project is already applied).
    const again = await runApply(bed, ["plan.json"], { json: true }, { interruptOnFirstPost: true });
    checkCliDocuments(["apply", "--json"], again.stdout, bed.world.dir);
    expect(again.code, again.stderr).toBe(130);
    expect(again.stderr).toContain("Interrupt received");
    const doc = JSON.parse(again.stdout);
    expect(doc.interrupted).toBe(true);
    expect(doc.actions.map((a: { status: string }) => a.status)).toEqual(["replayed"]);
    const [list] = doc.email.lists;
    // Batch 2 is not started (as in any apply: "interrupted (Ctrl-C): no new batch starts").
    expect(list.batches.map((b: { outcome: string; sends: number }) => [b.outcome, b.sends])).toEqual([
      ["replayed", 1],
      ["failed", 0],
    ]);
    expect(list.not_sent).toBe(1_001);
    // Only the batch in flight went out again.
    expect(await upserts(bed)).toHaveLength(4);
  });

  test("a CSV edited after the plan: the whole saved plan refused before any request, nothing sent", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 10 });
    beds.push(bed);
    expect((await planOut(bed)).code).toBe(0);
    appendFileSync(
      join(bed.world.dir, CSV),
      "late@example.org,signup form,2026-03-01T09:30:00Z,Late,Riverside\n",
    );
    await admin(bed.sb, "DELETE", "/requests");
    const run = await runApply(bed, ["plan.json"], { json: true });
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("apply.files-changed");
    expect(run.stdout).toContain(
      "email list young-volunteers: its CSV campaign/lists/young.csv changed since the plan was made",
    );
    // Refused offline: not even the key-scope read was made, and the project was not tested.
    expect(await requestLog(bed.sb)).toHaveLength(0);
    expect(await contents(bed)).toHaveLength(0);
  });

  test("--target of one email list: the saved plan covers no project and that list only, the other list left out (said once); apply PLANFILE syncs only it", async () => {
    const bed = await emailBed({ campaigns: false, childRows: 1_001 });
    beds.push(bed);
    const planned = await planOut(bed, { target: ["young-volunteers"] });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stderr.match(/note: --target\/--exclude leave/g)).toEqual([
      "note: --target/--exclude leave",
    ]);
    expect(planned.stderr).toContain("the email lists donors out of this run");
    const saved = JSON.parse(readFileSync(join(bed.world.dir, "plan.json"), "utf8"));
    expect(saved.targets).toEqual(["young-volunteers"]);
    expect(saved.projects).toEqual([]);
    expect(saved.email.lists.map((l: { address: string }) => l.address)).toEqual(["young-volunteers"]);

    const run = await runApply(bed, ["plan.json"], { json: true });
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.actions).toEqual([]);
    expect(doc.email.lists.map((l: { address: string; state: string }) => [l.address, l.state])).toEqual([
      ["young-volunteers", "synced"],
    ]);
    // Two batches to the targeted list; nothing to the other list; no texting write.
    const posts = (await requestLog(bed.sb)).filter((r) => r.method === "POST");
    expect(posts.map((r) => r.path)).toEqual(Array(2).fill(`/email/lists/${CHILD_LIST}/contacts`));
    expect(await contents(bed)).toHaveLength(1_001);
  });

  test("--target of a project only: the email lists are left out (said once), nothing is synced", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 5 });
    beds.push(bed);
    const run = await runApply(bed, ["campaign"], { target: ["test-1"], autoApprove: true, json: true });
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    expect(run.code, run.stderr).toBe(0);
    expect(
      run.stderr.match(/note: --target\/--exclude leave the email lists young-volunteers out/g),
    ).toHaveLength(1);
    const doc = JSON.parse(run.stdout);
    expect(doc.actions.map((a: { status: string }) => a.status)).toEqual(["done"]);
    expect(doc.email).toBeUndefined();
    expect(await upserts(bed)).toHaveLength(0);
  });

  test("a near-miss email list address is an error with a did-you-mean, before any request", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 5 });
    beds.push(bed);
    const run = await runApply(bed, ["campaign"], { target: ["young-volunteer"], autoApprove: true });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain("plan.unknown-address");
    expect(run.stdout + run.stderr).toContain("did you mean young-volunteers?");
    expect(await upserts(bed)).toHaveLength(0);
  });

  test("apply FILES: a CSV edited while the question waits is not synced (nothing sent to it), exit 1", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 5 });
    beds.push(bed);
    const run = await runApply(
      bed,
      ["campaign"],
      { json: true },
      {
        tty: true,
        ask: async () => {
          appendFileSync(join(bed.world.dir, CSV), "late@example.org,signup form,2026-03-01T09:30:00Z,L,R\n");
          return "yes";
        },
      },
    );
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    expect(run.code).toBe(1);
    const [list] = JSON.parse(run.stdout).email.lists;
    expect(list).toMatchObject({ state: "failed", accepted: 0, not_sent: 5 });
    expect(list.diagnostics[0].code).toBe("apply.files-changed");
    expect(await upserts(bed)).toHaveLength(0);
  });

  test("--exclude of one email list: the other list and the project go on; the note names the list once", async () => {
    const bed = await emailBed({ campaigns: false, childRows: 5 });
    beds.push(bed);
    const run = await runApply(bed, ["campaign"], { exclude: ["donors"], autoApprove: true, json: true });
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("note: --target/--exclude leave the email lists donors out of this run\n");
    const doc = JSON.parse(run.stdout);
    expect(doc.actions.map((a: { status: string }) => a.status)).toEqual(["done"]);
    expect(doc.email.lists.map((l: { address: string }) => l.address)).toEqual(["young-volunteers"]);
    expect((await upserts(bed)).map((r) => r.path)).toEqual([`/email/lists/${CHILD_LIST}/contacts`]);
  });
});
