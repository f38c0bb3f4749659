/**
 * Issue 33's acceptance for keys per organization, over the sandbox on loopback: three county
 * organizations under a state party, **one template** whose reply rule every county's instance
 * inherits, and an email list per county (each in a file naming its organization). With only
 * `CAMPAIGNCTL_API_KEY_<SLUG>` variables (no default key) the answer to an inbound on a county's
 * project and the county's list upserts go with that county's key; with only the parent's key both
 * writes are refused before any request (`apply.cross-organization-key`, naming the flag) and
 * happen with `--allow-cross-organization-key`. Whose key each request carried is read from the
 * sandbox's request log (`key_organization_id`), never from our client: routing the answer or the
 * upserts by anything but the owner makes these tests fail.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { stringify } from "yaml";
import { apply, type Bed, closeBeds, plan } from "./harness.js";
import {
  ANSWER,
  countiesWithLists,
  countyNumber,
  expectAnswerRefusedThenAllowed,
  expectAnswerWithCountyKey,
  expectListsRefused,
  expectListsSyncedWithOwnKeys,
  type Json,
  log,
  PARENT_ONLY,
  startBed,
  textIn,
  upserts,
  writes,
} from "./replies-harness.js";
import { PARENT_ORG } from "./world.js";

afterEach(closeBeds);

/** world.ts's SCHEDULE_AT, 2026-12-07T10:00:00-06:00, as a template writes it. */
const SCHEDULE_LOCAL = "2026-12-07T10:00";
const TEMPLATE_FILE = join("campaign", "gotv.yaml");
const listId = (i: number) => `e3000000-0000-4000-8000-${String(i).padStart(12, "0")}`;

/**
 * The counties' projects as instances of template `gotv` (its reply rule inherited, no project of
 * its own carrying one) in `campaign/gotv.yaml`; each county's email list in `campaign/org-<i>.yaml`,
 * whose `organization:` says whose it is.
 */
async function templateBed(): Promise<Bed> {
  const world = countiesWithLists(listId, 1);
  const instances: Record<string, unknown> = {};
  for (const org of world.orgs) {
    const project = org.projects[0];
    if (project === undefined) throw new Error("world");
    instances[project.address] = {
      organization: org.name,
      id: project.id,
      name: "GOTV 1",
      language: "en",
      brand: org.name,
      phone_numbers: [countyNumber(org.index)],
    };
    const listFile = {
      version: 1,
      organization: org.name,
      email_lists: {
        [`o${org.index}-volunteers`]: { id: listId(org.index), csv: `lists/o${org.index}.csv` },
      },
    };
    writeFileSync(join(world.dir, org.file), stringify(listFile));
  }
  const template = {
    version: 1,
    merge_defaults: { first_name: "friend" },
    templates: {
      gotv: {
        channel: "10dlc",
        campaign: "GOTV 2026",
        contact_lists: ["Likely Voters"],
        suppression_lists: ["Do Not Text"],
        message: { en: "Hi {{first_name|friend}}, vote Tuesday. Reply STOP to opt out" },
        state: "scheduled",
        timezone: "America/Chicago",
        schedule: { local: SCHEDULE_LOCAL },
        replies: { rules: [{ name: "where", keywords: ["where do i vote"], answer: ANSWER }] },
        instances,
      },
    },
  };
  writeFileSync(join(world.dir, TEMPLATE_FILE), stringify(template));
  return startBed(world);
}

describe("three organizations, no default key, each key in its own variable", () => {
  test("the template's reply rule answers an inbound to Baker's project with Baker's key", async () => {
    const b = await templateBed();
    await textIn(b, 2, 1, countyNumber(2), "Where do I vote?");
    // replies plan: each county's rule set, inherited from the template, and the one answer; the
    // answer the run's one write, with Baker's key.
    await expectAnswerWithCountyKey(b, 2);
  });

  test("each county's email list syncs with that county's key", async () => {
    await expectListsSyncedWithOwnKeys(await templateBed(), listId, 1);
  });
});

describe("only the parent's key", () => {
  const parent = PARENT_ONLY;

  test("the answer is refused before any request, at the template, naming the flag; with the flag it goes", async () => {
    const b = await templateBed();
    await textIn(b, 1, 1, countyNumber(1), "where do i vote");
    await expectAnswerRefusedThenAllowed(b, Array(3).fill(TEMPLATE_FILE));
  });

  test("the counties' list upserts are refused before any request, naming the flag; with the flag they go", async () => {
    const b = await templateBed();
    // The email lists alone: the template's schedules are refused by the same rule (owner-keys.test.ts).
    rmSync(join(b.world.dir, TEMPLATE_FILE));
    const planned = await plan(b, parent, { json: true });
    expect(planned.code).toBe(1);
    const said = (JSON.parse(planned.stdout).diagnostics as Json[]).map((d) => [d.code, d.range.file]);
    expect(said).toEqual(b.world.orgs.map((o) => ["apply.cross-organization-key", o.file]));

    const refused = await apply(b, parent, { json: true });
    expect(refused.code).toBe(1);
    expectListsRefused(JSON.parse(refused.stdout));
    expect(writes(await log(b))).toEqual([]);

    const allowed = await apply(b, parent, { json: true, allowCrossOrganizationKey: true });
    expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
    expect(
      upserts(await log(b))
        .map((r) => [r.path, r.key_organization_id, r.status])
        .sort(),
    ).toEqual(b.world.orgs.map((o) => [`/email/lists/${listId(o.index)}/contacts`, PARENT_ORG, 200]).sort());
  });
});
