/**
 * Email lists end to end (in-process CLI, real HTTP on loopback, the sandbox's virtual clock):
 * batches of 1,000 counted in the sandbox's request log, per-row results equal to the list's
 * contents, a re-run that replays, consent refused before any request, early access for one
 * organization while its texts apply.
 *
 * The acceptance names 100,000 rows; the suite syncs 3,005 (3 full batches, then the 5 refused
 * rows), because the size is not the point here: a batch boundary crossed twice shows the batching
 * as 10 batches did (at a third of the CPU: 10,005 rows were 1.7 s of the suite's), and
 * 100,000 rows take about 17 s for the first apply alone in-process on the 2-core CI machine (the
 * rate limits are no cost here: the client's limiter and the sandbox run on the virtual clock).
 * bench/email-sync.mjs asserts the same at 100,000 and 1,000,000 rows: the upserts counted in the
 * sandbox's request log, the result file's accepted rows equal to the list's contents, and a
 * re-run that replays.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { requestLog, runApply, type TestBed } from "../apply/helpers.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { admin } from "../sandbox/helpers.js";
import { CHILD_LIST, closedAfterEach, emailBed, PARENT_LIST } from "./world.js";

const beds = closedAfterEach();

const FILES = ["campaign"];
/** The valid rows of the big list, and the batches of 1,000 they make. */
const ROWS = 3_000;
const BATCHES = 3;

async function listContents(
  bed: TestBed,
  id: string,
): Promise<{ email: string; fields: Record<string, unknown>; consent_source: string | null }[]> {
  return (await admin(bed.sb, "GET", `/email/lists/${id}`)).body.data.contacts;
}

function rowResults(
  bed: TestBed,
  list: string,
): { line: number; email: string; status: string; reason: string | null }[] {
  const dir = join(bed.world.dir, ".campaignctl", "journal");
  return readdirSync(dir)
    .filter((f) => f.startsWith("email-") && f.endsWith(`-${list}.jsonl`))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, f), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    );
}

const upserts = async (bed: TestBed) =>
  (await requestLog(bed.sb)).filter((r) => r.method === "POST" && r.path.includes("/email/lists/"));

describe("email list sync", () => {
  test("3,005 rows: 5 without consent refused before any request, 3 batches of 1,000, results equal the list; the other organization skipped while its texts apply; a re-run replays", async () => {
    const bed = await emailBed({
      campaigns: false,
      childRows: ROWS,
      childExtra: [
        "noconsent1@example.org,,2026-03-01T09:30:00Z,A,B",
        "noconsent2@example.org,web,,A,B",
        "noconsent3@example.org,,,A,B",
        "noconsent4@example.org,,,A,B",
        "noconsent5@example.org,,,A,B",
      ],
    });
    beds.push(bed);
    const run = await runApply(bed, FILES, { autoApprove: true, json: true, policy: "policy.yaml" });
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    const doc = JSON.parse(run.stdout);
    // Refused rows fail the run (exit 1) once everything else is done; early access does not.
    expect(run.code, run.stderr).toBe(1);
    expect(doc.actions.map((a: { status: string }) => a.status)).toEqual(["done"]);
    const byAddress = Object.fromEntries(doc.email.lists.map((l: { address: string }) => [l.address, l]));
    expect(byAddress.donors).toMatchObject({ state: "skipped", skipped: 3, accepted: 0 });
    expect(byAddress["young-volunteers"]).toMatchObject({
      state: "synced",
      rows: ROWS + 5,
      accepted: ROWS,
      refused: 5,
      rejected: 0,
    });
    expect(byAddress["young-volunteers"].batches).toHaveLength(BATCHES);

    // 3 batches to the child's list (1 refused attempt at the parent's), each of at most 1,000.
    const posts = await upserts(bed);
    expect(posts.filter((r) => r.path.includes(CHILD_LIST))).toHaveLength(BATCHES);
    expect(posts.filter((r) => r.path.includes(PARENT_LIST)).map((r) => r.status)).toEqual([403]);

    // The per-row results equal the list's contents; the refused rows never reached the API.
    const results = rowResults(bed, "young-volunteers");
    expect(results).toHaveLength(ROWS + 5);
    const accepted = results.filter((r) => r.status === "accepted").map((r) => r.email);
    const contents = await listContents(bed, CHILD_LIST);
    expect(new Set(contents.map((c) => c.email))).toEqual(new Set(accepted));
    expect(contents.find((c) => c.email === "young7@example.org")).toMatchObject({
      fields: { first_name: "Voter 7", city: "Riverside" },
      consent_source: "signup form",
    });
    const refused = results.filter((r) => r.status === "refused");
    // CSV lines: the header is line 1, the valid rows 2 to ROWS + 1.
    expect(refused.map((r) => r.line)).toEqual([2, 3, 4, 5, 6].map((n) => ROWS + n));
    expect(refused.every((r) => r.reason?.startsWith("policy.require-email-consent"))).toBe(true);
    expect(contents.some((c) => c.email.startsWith("noconsent"))).toBe(false);

    // A re-run replays every batch: no new writes.
    const before = contents.length;
    const again = await runApply(bed, FILES, { autoApprove: true, json: true, policy: "policy.yaml" });
    checkCliDocuments(["apply", "--json"], again.stdout, bed.world.dir);
    const second = JSON.parse(again.stdout).email.lists.find(
      (l: { address: string }) => l.address === "young-volunteers",
    );
    expect(second.batches.map((b: { outcome: string }) => b.outcome)).toEqual(
      Array(BATCHES).fill("replayed"),
    );
    const replays = (await upserts(bed)).filter((r) => r.path.includes(CHILD_LIST)).slice(BATCHES);
    expect(replays).toHaveLength(BATCHES);
    expect(replays.every((r) => r.replayed)).toBe(true);
    expect(await listContents(bed, CHILD_LIST)).toHaveLength(before);
  }, 120_000);

  test("early access alone is not a failure: exit 0, the parent's list skipped with its reason, its texts applied", async () => {
    const bed = await emailBed({ campaigns: false, childRows: 5 });
    beds.push(bed);
    const run = await runApply(bed, FILES, { autoApprove: true });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("test-1.test");
    expect(run.stdout).toMatch(
      /donors \(e2000000-0000-4000-8000-0000000000a1\): skipped; 3 rows: 0 accepted/,
    );
    expect(run.stdout).toContain(
      "young-volunteers (e2000000-0000-4000-8000-0000000000c1): synced; 5 rows: 5 accepted",
    );
    expect(run.stdout).toContain("warning[email.early-access]");
    expect((await listContents(bed, CHILD_LIST)).map((c) => c.email)).toEqual(
      [0, 1, 2, 3, 4].map((i) => `young${i}@example.org`),
    );
    expect(await listContents(bed, PARENT_LIST)).toEqual([]);
    checkCliDocuments(["apply"], "", bed.world.dir);
  }, 60_000);
});
