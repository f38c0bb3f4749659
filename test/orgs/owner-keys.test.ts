/**
 * Every request with its owner's key (issue 33 point 3) and every request counted (issue 34 point
 * 8), over the sandbox on loopback: three county organizations under a state party, each county with
 * a project that has a reply rule and an email list of its own, each county's key in its own
 * `CAMPAIGNCTL_API_KEY_<SLUG>` variable and no default key. What went with which key is read from
 * the sandbox's request log (`key_organization_id`), never from our own client.
 */
import { afterEach, describe, expect, test } from "vitest";
import { watchCommand } from "../../cli/commands/watch.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { admin } from "../sandbox/helpers.js";
import { apply, type Bed, closeBeds, io, orgKeys, plan, virtual } from "./harness.js";
import {
  ANSWER,
  clearLog,
  countiesWithLists,
  countyNumber,
  expectAnswerRefusedThenAllowed,
  expectAnswerWithCountyKey,
  expectListsRefused,
  expectListsSyncedWithOwnKeys,
  FLAG,
  type Json,
  log,
  PARENT_ONLY,
  repliesPlan,
  repliesRun,
  replyPosts,
  startBed,
  textIn as textFrom,
  upserts,
} from "./replies-harness.js";
import { PARENT_ORG, writeCampaignFile } from "./world.js";

afterEach(closeBeds);

const listId = (i: number) => `e2000000-0000-4000-8000-${String(i).padStart(12, "0")}`;

/** Three counties, each project with a reply rule, each county with an email list (email available). */
async function ownerBed(faults?: string): Promise<Bed> {
  const world = countiesWithLists(listId, 2);
  for (const org of world.orgs)
    writeCampaignFile(world.dir, org, (doc) => {
      const projects = doc.projects as Record<string, Record<string, unknown>>;
      for (const p of Object.values(projects))
        p.replies = { rules: [{ name: "where", keywords: ["where do i vote"], answer: ANSWER }] };
      doc.email_lists = {
        [`o${org.index}-volunteers`]: { id: listId(org.index), csv: `lists/o${org.index}.csv` },
      };
    });
  return startBed(world, faults);
}

/** Contact `n` of county `i` texts its project's number. */
const textIn = (b: Bed, i: number, n: number, text: string) => textFrom(b, i, n, countyNumber(i), text);

describe("only keys per organization (no default key)", () => {
  test("a reply on a county's project goes with that county's key; replies plan agrees", async () => {
    const b = await ownerBed();
    await textIn(b, 2, 1, "Where do I vote?");
    await expectAnswerWithCountyKey(b, 2);
  });

  test("each county's email list syncs with that county's key", async () => {
    await expectListsSyncedWithOwnKeys(await ownerBed(), listId, 2);
  });

  test("a county without its key: replies and apply name the variable to set, before any request with it", async () => {
    const b = await ownerBed();
    const clark = b.world.orgs[2];
    if (clark === undefined) throw new Error("world");
    const env = orgKeys(b);
    delete env[clark.variable];
    const run = await repliesRun(b, env);
    expect(run.code).toBe(1);
    const [doc] = run.lines;
    expect(doc.diagnostics.map((d: Json) => d.code)).toEqual(["api.no-organization-key"]);
    expect(doc.diagnostics[0].message).toContain(`${clark.variable} is not set`);
    expect(doc.diagnostics[0].range.file).toBe(clark.file);
    expect(run.out).not.toContain("(none)");

    const applied = await apply(b, env, { json: true });
    expect(applied.code).toBe(1);
    const failed = JSON.parse(applied.stdout);
    expect(failed.error).toBe(true);
    // Its project and its email list, each at its line.
    expect(failed.diagnostics.map((d: Json) => [d.code, d.range?.file])).toEqual([
      ["api.no-organization-key", clark.file],
      ["api.no-organization-key", clark.file],
    ]);
    expect(failed.diagnostics.map((d: Json) => d.message.split(":")[0]).sort()).toEqual([
      "email list o3-volunteers",
      clark.projects[0]?.address,
    ]);
    expect((await log(b)).filter((r) => r.method === "POST")).toEqual([]);
  });
});

describe("only a parent's key", () => {
  const parent = PARENT_ONLY;

  test("replies run refuses to answer in a county's conversations before any write; the flag lets it", async () => {
    const b = await ownerBed();
    await textIn(b, 1, 1, "where do i vote");
    await expectAnswerRefusedThenAllowed(
      b,
      b.world.orgs.map((o) => o.file),
    );
  });

  test("a file that names no organization: the write port refuses the answer (the project read says whose it is); the inbound stays open", async () => {
    const b = await ownerBed();
    for (const org of b.world.orgs)
      writeCampaignFile(b.world.dir, org, (d) => {
        delete d.organization;
        for (const p of Object.values(d.projects as Record<string, Record<string, unknown>>))
          p.replies = { rules: [{ name: "where", keywords: ["where do i vote"], answer: ANSWER }] };
      });
    await textIn(b, 1, 1, "where do i vote");
    const run = await repliesRun(b, parent);
    expect(run.code).toBe(1);
    const inbound = run.lines.find((l) => l.type === "inbound");
    expect(inbound).toMatchObject({ outcome: "unknown" });
    expect(inbound.detail).toContain(FLAG);
    expect(replyPosts(await log(b))).toEqual([]);
    // Not recorded as refused: with the flag, the next run answers it.
    await b.sb.clock.advance(61_000);
    const allowed = await repliesRun(b, parent, { allowCrossOrganizationKey: true });
    expect(allowed.code, allowed.out).toBe(0);
    expect(replyPosts(await log(b)).map((r) => [r.key_organization_id, r.status])).toEqual([
      [PARENT_ORG, 202],
    ]);
  });

  test("apply refuses the counties' email lists (and texts) before any write; the flag lets them; a pause needs no flag", async () => {
    const b = await ownerBed();
    const planned = await plan(b, parent, { json: true });
    expect(planned.code).toBe(1);
    const planDoc = JSON.parse(planned.stdout);
    const said = (planDoc.diagnostics as Json[]).filter((d) => d.code === "apply.cross-organization-key");
    expect(said.map((d) => d.severity)).toEqual(["error", "error", "error"]);

    const refused = await apply(b, parent, { json: true });
    expect(refused.code).toBe(1);
    const doc = JSON.parse(refused.stdout);
    expect(doc.actions.map((a: Json) => a.status)).toEqual(["blocked", "blocked", "blocked"]);
    expectListsRefused(doc);
    expect((await log(b)).filter((r) => r.method === "POST")).toEqual([]);

    const allowed = await apply(b, parent, { json: true, allowCrossOrganizationKey: true });
    expect(allowed.code, allowed.stderr).toBe(0);
    const posts = (await log(b)).filter((r) => r.method === "POST");
    expect(upserts(posts).map((r) => [r.key_organization_id, r.status])).toEqual(
      Array(3).fill([PARENT_ORG, 200]),
    );
    expect(posts.filter((r) => r.route === "/projects/{id}/schedule")).toHaveLength(3);

    // A pause sends nothing: the parent's key pauses a county's project without the flag.
    const baker = b.world.orgs[1];
    if (baker === undefined) throw new Error("world");
    writeCampaignFile(b.world.dir, baker, (d) => {
      for (const p of Object.values(d.projects as Record<string, Record<string, unknown>>)) {
        p.state = "paused";
        p.replies = { rules: [{ name: "where", keywords: ["where do i vote"], answer: ANSWER }] };
      }
      d.email_lists = { "o2-volunteers": { id: listId(2), csv: "lists/o2.csv" } };
    });
    await clearLog(b);
    const paused = await apply(b, parent, { json: true, target: [baker.projects[0]?.address ?? ""] });
    expect(paused.code, paused.stdout).toBe(0);
    const pauses = (await log(b)).filter((r) => r.method === "POST");
    expect(pauses.map((r) => [r.route, r.key_organization_id, r.status])).toEqual([
      ["/projects/{id}/pause", PARENT_ORG, 200],
    ]);
  });
});

test("a faulted run's summaries count every request and every 429 the sandbox logged", async () => {
  const faults = [
    "GET /organizations: status(429, retry-after=1) n=2",
    "GET /projects/{id}: status(429, retry-after=1) n=2",
    "GET /email/campaigns: status(429, retry-after=1) n=1",
    "POST /email/lists/{id}/contacts: status(429, retry-after=1) n=2",
    "GET /conversations: status(429, retry-after=1) n=1",
  ].join("; ");
  const b = await ownerBed(faults);
  await textIn(b, 3, 1, "where do I vote");
  const counted = async () => {
    const entries = await log(b);
    await clearLog(b);
    return { total: entries.length, throttled: entries.filter((r) => r.status === 429).length };
  };

  const planned = await plan(b, orgKeys(b), { json: true });
  expect(planned.code, planned.stderr).toBe(0);
  const planLog = await counted();
  expect(planLog.throttled).toBeGreaterThan(0);
  expect(JSON.parse(planned.stdout).requests.total).toBe(planLog.total);

  const run = await apply(b, orgKeys(b), { json: true });
  expect(run.code, run.stderr).toBe(0);
  const applyLog = await counted();
  const requests = JSON.parse(run.stdout).requests;
  expect(applyLog.throttled).toBeGreaterThan(0);
  expect([requests.total, requests.rate_limited_429]).toEqual([applyLog.total, applyLog.throttled]);
  expect(run.stderr).not.toContain(" 0 API requests");

  const replies = await repliesPlan(b, orgKeys(b));
  expect(replies.code, replies.stderr).toBe(0);
  expect(replies.doc.requests).toBe((await counted()).total);

  // watch's summary too: the keys' checks before its first poll included.
  const out = { stdout: "", stderr: "" };
  const v = virtual(b);
  const watched = await watchCommand(
    ["campaign"],
    { baseUrl: b.sb.baseUrl, once: true, json: true, color: false },
    io(b, orgKeys(b), out),
    { session: v, sleep: v.sleep, onInterrupt: () => () => {} },
  );
  checkCliDocuments(["watch", "--json"], out.stdout, b.world.dir);
  expect(exitCodeOf(watched), out.stderr).toBe(0);
  const stop = JSON.parse(out.stdout.trim().split("\n").at(-1) ?? "{}");
  expect(stop.type).toBe("stop");
  expect(stop.requests).toBe((await counted()).total);
});

test("replies plan, when one county's key failed GET /organizations and then the conversations could not be listed, keeps the warning naming that key", async () => {
  // County 1's key fails its check (503, every attempt); every key's conversation listing fails.
  const county1 = "0c000000-0000-4000-8000-000000000001";
  const b = await ownerBed(`GET /organizations: status(503) org=${county1}; GET /conversations: status(500)`);
  const [adams] = b.world.orgs;
  if (adams?.id !== county1) throw new Error("world");
  const replies = await repliesPlan(b, orgKeys(b));
  expect(replies.code).toBe(1);
  expect(replies.stderr).toContain("GET /conversations");
  expect(replies.stderr).toContain(`the key in ${adams.variable} could not be used`);
});

test("replies run: a county whose key could not be used keeps the cursor where it was; a run a day later with the key answers that county's inbound", async () => {
  const county1 = "0c000000-0000-4000-8000-000000000001";
  const b = await ownerBed(`GET /organizations: status(503) org=${county1}`);
  const [adams] = b.world.orgs;
  if (adams?.id !== county1) throw new Error("world");
  // County 1's voter asks first; county 2's three hours later (past the passes' 2-hour overlap).
  await textIn(b, 1, 1, "Where do I vote?");
  await admin(b.sb, "POST", "/clock/advance", { ms: 3 * 3_600_000 });
  await textIn(b, 2, 1, "Where do I vote?");
  const first = await repliesRun(b, orgKeys(b));
  expect(first.stderr).toContain(`the key in ${adams.variable} could not be used`);
  expect(first.lines.filter((l) => l.type === "inbound" && l.outcome === "answered")).toHaveLength(1);
  const held = first.lines.filter((l) => l.type === "problem" && l.diagnostic.code === "replies.cursor-held");
  expect(held).toHaveLength(1);
  expect(held[0].diagnostic.message).toContain(
    `the conversations of ${adams.projects[0]?.address} cannot be listed nor answered now`,
  );
  // No cursor before: it is held at the pass's floor, not left unset (a first window slides with now).
  const pass = first.lines.find((l) => l.type === "pass");
  expect(pass.cursor).toBe(pass.updated_since);
  // The key answers again a day later; the next run's pass still reaches county 1's inbound, and
  // answers it with its key.
  await admin(b.sb, "DELETE", "/faults");
  await admin(b.sb, "POST", "/clock/advance", { ms: 25 * 3_600_000 });
  await clearLog(b);
  const second = await repliesRun(b, orgKeys(b));
  expect(second.code, second.out + second.stderr).toBe(0);
  expect(second.lines.filter((l) => l.type === "inbound" && l.outcome === "answered")).toHaveLength(1);
  expect(replyPosts(await log(b)).map((r) => [r.key_organization_id, r.status])).toEqual([[county1, 202]]);
});

test("replies run that goes on: a county's key that failed at the start (503 past the second read) is checked again before a later pass; its inbound is then answered with its key", async () => {
  const county1 = "0c000000-0000-4000-8000-000000000001";
  const b = await ownerBed(`GET /organizations: status(503) org=${county1} n=8`);
  await textIn(b, 1, 1, "Where do I vote?");
  const start = b.sb.clock.nowMs();
  let stop = () => {};
  const run = await repliesRun(
    b,
    orgKeys(b),
    { once: false },
    {
      // Five minutes of the API's clock, then Ctrl-C.
      sleep: async (ms) => {
        if (b.sb.clock.nowMs() - start > 5 * 60_000) stop();
        await b.sb.clock.advance(ms);
      },
      onInterrupt: (handler) => {
        stop = handler;
        return () => {};
      },
    },
  );
  const problems = run.lines.filter((l) => l.type === "problem").map((l) => l.diagnostic.code);
  expect(problems).toEqual(["api.server-error", "replies.cursor-held", "api.key-usable-again"]);
  const usable = run.lines.find((l) => l.type === "problem" && l.diagnostic.code === "api.key-usable-again");
  expect(Date.parse(usable.at) - start).toBeGreaterThanOrEqual(60_000);
  expect(run.lines.filter((l) => l.type === "inbound" && l.outcome === "answered")).toHaveLength(1);
  expect(replyPosts(await log(b)).map((r) => [r.key_organization_id, r.status])).toEqual([[county1, 202]]);
  expect(run.code, run.out + run.stderr).toBe(0);
});
