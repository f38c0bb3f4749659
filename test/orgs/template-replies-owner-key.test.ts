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
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { stringify } from "yaml";
import type { Fixture } from "../../src/sandbox/fixture/types.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { adopt, apply, type Bed, closeBeds, type LogEntry, orgKeys, plan } from "./harness.js";
import { type Json, log, repliesPlan, repliesRun, replyPosts, textIn } from "./replies-harness.js";
import { buildOrgWorld, PARENT_KEY, PARENT_ORG } from "./world.js";

afterEach(closeBeds);

const ANSWER = "Vote at City Hall, 7am to 7pm. Reply STOP to opt out";
const FLAG = "--allow-cross-organization-key";
/** world.ts's SCHEDULE_AT, 2026-12-07T10:00:00-06:00, as a template writes it. */
const SCHEDULE_LOCAL = "2026-12-07T10:00";
const TEMPLATE_FILE = join("campaign", "gotv.yaml");
const listId = (i: number) => `e3000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
const number = (i: number) => `+1503555${String(i).padStart(4, "0")}`;

/**
 * The counties' projects as instances of template `gotv` (its reply rule inherited, no project of
 * its own carrying one) in `campaign/gotv.yaml`; each county's email list in `campaign/org-<i>.yaml`,
 * whose `organization:` says whose it is.
 */
async function templateBed(): Promise<Bed> {
  const world = buildOrgWorld(3, 1);
  const f = world.fixture as Fixture;
  for (const org of f.organizations ?? []) if (org.id !== PARENT_ORG) org.email_available = true;
  f.email = {
    lists: world.orgs.map((o) => ({ id: listId(o.index), name: "Volunteers", organization_id: o.id })),
  };
  mkdirSync(join(world.dir, "campaign", "lists"));
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
      phone_numbers: [number(org.index)],
    };
    writeFileSync(
      join(world.dir, "campaign", "lists", `o${org.index}.csv`),
      `email,consent_source,consent_at\nann${org.index}@example.org,signup form,2026-03-01T09:30:00Z\n`,
    );
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
  const sb = await startSandbox({ fixture: f, rateLimits: true });
  return adopt({ world, sb });
}

const upserts = (entries: readonly LogEntry[]) =>
  entries.filter((r) => r.method === "POST" && r.route === "/email/lists/{id}/contacts");
const writes = (entries: readonly LogEntry[]) => entries.filter((r) => r.method !== "GET");

describe("three organizations, no default key, each key in its own variable", () => {
  test("the template's reply rule answers an inbound to Baker's project with Baker's key", async () => {
    const b = await templateBed();
    const [adams, baker, clark] = b.world.orgs;
    await textIn(b, 2, 1, number(2), "Where do I vote?");

    // replies plan: each county's rule set, inherited from the template, and the one answer.
    const planned = await repliesPlan(b, orgKeys(b));
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.doc.totals.answer).toBe(1);

    const run = await repliesRun(b, orgKeys(b));
    expect(run.code, run.out + run.stderr).toBe(0);
    const answered = run.lines.filter((l) => l.type === "inbound" && l.outcome === "answered");
    expect(answered.map((l) => l.rule)).toEqual(["where"]);
    const entries = await log(b);
    expect(replyPosts(entries).map((r) => [r.key_organization_id, r.status])).toEqual([[baker?.id, 202]]);
    // The one write of the run; no request went with the parent's key (none is set).
    expect(writes(entries)).toHaveLength(1);
    expect(entries.every((r) => r.key_organization_id !== PARENT_ORG)).toBe(true);
    // Each county read its own conversations with its own key.
    const listers = new Set(
      entries.filter((r) => r.route === "/conversations").map((r) => r.key_organization_id),
    );
    expect(listers).toEqual(new Set([adams?.id, baker?.id, clark?.id]));
  });

  test("each county's email list syncs with that county's key", async () => {
    const b = await templateBed();
    const run = await apply(b, orgKeys(b), { json: true });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.email.lists.map((l: Json) => [l.address, l.state, l.accepted])).toEqual(
      b.world.orgs.map((o) => [`o${o.index}-volunteers`, "synced", 1]),
    );
    const posts = upserts(await log(b));
    expect(posts.map((r) => [r.path, r.key_organization_id, r.status]).sort()).toEqual(
      b.world.orgs.map((o) => [`/email/lists/${listId(o.index)}/contacts`, o.id, 200]).sort(),
    );
  });
});

describe("only the parent's key", () => {
  const parent = { CAMPAIGNCTL_API_KEY: PARENT_KEY };

  test("the answer is refused before any request, at the template, naming the flag; with the flag it goes", async () => {
    const b = await templateBed();
    await textIn(b, 1, 1, number(1), "where do i vote");

    const planned = await repliesPlan(b, parent);
    expect(planned.code).toBe(1);
    expect(planned.stderr).toContain("apply.cross-organization-key");
    expect(planned.stderr).toContain(FLAG);

    const refused = await repliesRun(b, parent);
    expect(refused.code).toBe(1);
    const error = refused.lines[0];
    expect(error.error).toBe(true);
    expect(error.diagnostics.map((d: Json) => d.code)).toEqual(Array(3).fill("apply.cross-organization-key"));
    for (const d of error.diagnostics) {
      expect(d.hint).toContain(FLAG);
      expect(d.range.file).toBe(TEMPLATE_FILE);
    }
    expect(writes(await log(b))).toEqual([]);

    const allowed = await repliesRun(b, parent, { allowCrossOrganizationKey: true });
    expect(allowed.code, allowed.out).toBe(0);
    expect(replyPosts(await log(b)).map((r) => [r.key_organization_id, r.status])).toEqual([
      [PARENT_ORG, 202],
    ]);
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
    const doc = JSON.parse(refused.stdout);
    expect(doc.email.lists.map((l: Json) => l.state)).toEqual(["failed", "failed", "failed"]);
    for (const list of doc.email.lists) {
      expect(list.diagnostics.map((d: Json) => d.code)).toEqual(["apply.cross-organization-key"]);
      expect(list.diagnostics[0].message).toContain(FLAG);
    }
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
