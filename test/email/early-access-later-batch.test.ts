import { describe, expect, test } from "vitest";
import { runApply } from "../apply/helpers.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { admin, CHILD_ORG } from "../sandbox/helpers.js";
import { CHILD_LIST, closedAfterEach, emailBed } from "./world.js";

const beds = closedAfterEach();

describe("early access after a list's first batch was written", () => {
  test("the list is failed (partly written), not skipped, and the run exits 1", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 1_500 });
    beds.push(bed);
    let upserts = 0;
    const run = await runApply(
      bed,
      ["campaign"],
      { autoApprove: true, json: true },
      {
        onPost: (_n, path) => {
          // The organization loses email as the list's second batch starts.
          if (path.includes(CHILD_LIST) && ++upserts === 2)
            bed.sb.store.mutate((w) => {
              const org = w.organizations[CHILD_ORG];
              if (org !== undefined) org.email_available = false;
            });
        },
      },
    );
    const contents = (await admin(bed.sb, "GET", `/email/lists/${CHILD_LIST}`)).body.data.contacts;
    expect(contents).toHaveLength(1_000); // batch 1 was written
    const doc = JSON.parse(run.stdout);
    const list = doc.email.lists.find((l: { address: string }) => l.address === "young-volunteers");
    expect(list.batches.map((b: { outcome: string }) => b.outcome)).toEqual(["written", "early-access"]);
    expect(list.accepted).toBe(1_000);
    expect(list.state).toBe("failed");
    expect(run.code, run.stderr).toBe(1);
    const codes = list.diagnostics.map((d: { severity: string; code: string }) => `${d.severity}:${d.code}`);
    expect(codes).toContain("error:email.batch-failed");
    const message = list.diagnostics.find((d: { code: string }) => d.code === "email.batch-failed").message;
    expect(message).toContain("EMAIL_EARLY_ACCESS");
    expect(message).toContain("after batch 1 was written");
    checkCliDocuments(["apply"], "", bed.world.dir);
  }, 60_000);
});
