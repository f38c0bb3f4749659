/**
 * The CSV an email list syncs from changes while apply sends its batches (an export job rewrites it,
 * someone saves it): only rows of the CSV the plan read (and the person approved) are ever sent.
 * The digest is taken before the first batch; the rows are read from that same open file, and the
 * file's bytes are confirmed unchanged before every later batch. Real HTTP against the sandbox.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runApply, type TestBed } from "../apply/helpers.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { admin } from "../sandbox/helpers.js";
import { CHILD_LIST, closedAfterEach, csvText, emailBed } from "./world.js";

const beds = closedAfterEach();

/** Five batches, about 360 KB: far more than the file stream reads ahead of the first batch. */
const ROWS = 4_500;
const contents = async (bed: TestBed): Promise<{ email: string }[]> =>
  (await admin(bed.sb, "GET", `/email/lists/${CHILD_LIST}`)).body.data.contacts;
const csvPath = (bed: TestBed) => join(bed.world.dir, "campaign", "lists", "young.csv");
const listOf = (stdout: string) =>
  JSON.parse(stdout).email.lists.find((l: { address: string }) => l.address === "young-volunteers");

describe("the CSV changes while its list syncs", () => {
  test("rewritten in place after the first batch: no row of the new file is sent, the list stops (apply.files-changed), exit 1", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: ROWS, texts: {} });
    beds.push(bed);
    const run = await runApply(
      bed,
      ["campaign"],
      { autoApprove: true, json: true },
      {
        onPost: (n, path) => {
          if (n === 1 && path.includes(CHILD_LIST)) writeFileSync(csvPath(bed), csvText(ROWS, "unreviewed"));
        },
      },
    );
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    const written = (await contents(bed)).map((c) => c.email);
    expect(written.filter((e) => e.startsWith("unreviewed"))).toEqual([]);
    expect(written).toHaveLength(1_000);
    expect(run.code).toBe(1);
    const list = listOf(run.stdout);
    expect(list).toMatchObject({ state: "failed", accepted: 1_000 });
    expect(list.accepted + list.refused + list.not_sent).toBe(list.rows);
    expect(list.diagnostics.map((d: { code: string }) => d.code)).toEqual(["apply.files-changed"]);
  }, 60_000);

  test("replaced by a new file (renamed over it) after the first batch: the list syncs the file the plan read, whole", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: ROWS, texts: {} });
    beds.push(bed);
    const original = readFileSync(csvPath(bed), "utf8");
    const run = await runApply(
      bed,
      ["campaign"],
      { autoApprove: true, json: true },
      {
        onPost: (n, path) => {
          if (n !== 1 || !path.includes(CHILD_LIST)) return;
          writeFileSync(`${csvPath(bed)}.new`, csvText(ROWS, "unreviewed"));
          renameSync(`${csvPath(bed)}.new`, csvPath(bed));
        },
      },
    );
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    const written = (await contents(bed)).map((c) => c.email);
    expect(written.filter((e) => e.startsWith("unreviewed"))).toEqual([]);
    expect(listOf(run.stdout).diagnostics).toEqual([]);
    expect(written).toHaveLength(ROWS);
    expect(original).toContain(`young${ROWS - 1}@example.org`);
    expect(run.code, run.stderr).toBe(0);
    expect(listOf(run.stdout)).toMatchObject({ state: "synced", accepted: ROWS });
  }, 60_000);
});
