/**
 * An email campaign's `lists:` naming one list twice, by its address under `email_lists:` and by its
 * id: the file then describes one list, and a live campaign with that list and another one drifts
 * (the other list would be sent to, unseen). The comparison is of the sets of ids, not of their
 * counts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { checkCliDocuments } from "../helpers/documents.js";
import { CAMPAIGN_DOMAIN, CHILD_LIST, closedAfterEach, emailBed, OTHER_LIST, planWorld } from "./world.js";

const beds = closedAfterEach();

describe("plan: an email campaign's lists compared as sets of ids", () => {
  test("a list named by its address and by its id, the live campaign with one more list: drift in lists", async () => {
    const bed = await emailBed({
      childRows: 3,
      fixture: (f) => {
        const rally = f.email?.campaigns?.find((c) => c.id === CAMPAIGN_DOMAIN);
        if (rally !== undefined) rally.list_ids = [CHILD_LIST, OTHER_LIST];
      },
    });
    beds.push(bed);
    const file = join(bed.world.dir, "campaign", "young-email.yaml");
    const text = readFileSync(file, "utf8");
    const rallyLists = "    lists:\n      - young-volunteers\n    sending_domain";
    expect(text).toContain(rallyLists);
    writeFileSync(
      file,
      text.replace(
        rallyLists,
        `    lists:\n      - young-volunteers\n      - ${CHILD_LIST}\n    sending_domain`,
      ),
    );
    const run = await planWorld(bed, { json: true });
    checkCliDocuments(["plan", "--json"], run.stdout, bed.world.dir);
    expect(run.code).toBe(1);
    const rally = JSON.parse(run.stdout).email.campaigns.find(
      (c: { address: string }) => c.address === "rally-invite",
    );
    expect(rally.drift).toEqual([
      { field: "lists", file: `[${CHILD_LIST}]`, live: `[${CHILD_LIST}, ${OTHER_LIST}]` },
    ]);
    expect(rally.verdict).toBe("blocked");
  });
});
