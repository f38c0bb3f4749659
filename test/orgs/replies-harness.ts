/**
 * `replies plan` and `replies run` in process over an organizations bed (./harness.ts), on the
 * sandbox's virtual clock, every document checked against its schema; and what the sandbox logged
 * (`/_sandbox/requests`, with each request's `key_organization_id`). Shared by the tests of keys per
 * organization with reply rules (owner-keys.test.ts, template-replies-owner-key.test.ts), with their
 * world (three counties, each with an email list) and the checks both make of whose key each write
 * carried.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { type RepliesPlanFlags, repliesPlanCommand } from "../../cli/commands/replies-plan.js";
import {
  type RepliesRunDeps,
  type RepliesRunFlags,
  repliesRunCommand,
} from "../../cli/commands/replies-run.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import type { Fixture } from "../../src/sandbox/fixture/types.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { captureIo } from "../helpers/run-cli.js";
import { schemaErrors } from "../helpers/schemas.js";
import { admin } from "../sandbox/helpers.js";
import { adopt, apply, type Bed, type LogEntry, orgKeys, virtual } from "./harness.js";
import { buildOrgWorld, type OrgWorld, PARENT_KEY, PARENT_ORG } from "./world.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON documents are checked against their schemas
export type Json = any;

/** Every request the sandbox logged since it started (or since `clearLog`). */
export async function log(b: Bed): Promise<(LogEntry & { route: string | null })[]> {
  return (await admin(b.sb, "GET", "/requests")).body.data.requests;
}

export async function clearLog(b: Bed): Promise<void> {
  await admin(b.sb, "DELETE", "/requests");
}

export const ANSWER = "Vote at City Hall, 7am to 7pm. Reply STOP to opt out";
export const FLAG = "--allow-cross-organization-key";
/** Only the state party's key, no county's. */
export const PARENT_ONLY = { CAMPAIGNCTL_API_KEY: PARENT_KEY };
/** The number of county `i`'s project. */
export const countyNumber = (i: number) => `+1503555${String(i).padStart(4, "0")}`;

/**
 * Three counties under the state party, email available to each, each with an email list of the
 * fixture (`listId(i)`, "Volunteers") whose CSV `campaign/lists/o<i>.csv` holds `contacts` consented
 * rows. The campaign files are the caller's to write; `startBed` serves the world.
 */
export function countiesWithLists(listId: (i: number) => string, contacts: number): OrgWorld {
  const world = buildOrgWorld(3, 1);
  const f = world.fixture as Fixture;
  for (const org of f.organizations ?? []) if (org.id !== PARENT_ORG) org.email_available = true;
  f.email = {
    lists: world.orgs.map((o) => ({ id: listId(o.index), name: "Volunteers", organization_id: o.id })),
  };
  mkdirSync(join(world.dir, "campaign", "lists"));
  for (const org of world.orgs) {
    const rows = ["ann", "ben"]
      .slice(0, contacts)
      .map((name) => `${name}${org.index}@example.org,signup form,2026-03-01T09:30:00Z\n`);
    writeFileSync(
      join(world.dir, "campaign", "lists", `o${org.index}.csv`),
      `email,consent_source,consent_at\n${rows.join("")}`,
    );
  }
  return world;
}

/** The sandbox (rate limits on, `faults` when given) serving `world`, closed with the other beds. */
export async function startBed(world: OrgWorld, faults?: string): Promise<Bed> {
  const sb = await startSandbox({
    fixture: world.fixture,
    rateLimits: true,
    ...(faults === undefined ? {} : { faults }),
  });
  return adopt({ world, sb });
}

/** The email list upserts: POST /email/lists/{id}/contacts. */
export const upserts = (entries: readonly LogEntry[]) =>
  entries.filter((r) => r.method === "POST" && r.route === "/email/lists/{id}/contacts");

/** Every request but a read. */
export const writes = (entries: readonly LogEntry[]) => entries.filter((r) => r.method !== "GET");

/** The answers sent: POST /conversations/{id}/messages. */
export const replyPosts = (entries: readonly LogEntry[]) =>
  entries.filter((r) => r.method === "POST" && r.route === "/conversations/{conversation_id}/messages");

/** Contact `n` of county `i` texts `phone`, the number of the county's first project. */
export async function textIn(b: Bed, i: number, n: number, phone: string, text: string): Promise<void> {
  const org = b.world.orgs[i - 1];
  const reply = await admin(b.sb, "POST", "/inbound", {
    project_id: org?.projects[0]?.id,
    contact_phone: `+1971555${String(100 * i + n).padStart(4, "0")}`,
    phone_number: phone,
    text,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

/**
 * `replies run --once --no-webhooks --json` over `campaign/`: its exit code and its lines. `deps`
 * replace the virtual clock's sleep and the interrupt's registration (a run that goes on).
 */
export async function repliesRun(
  b: Bed,
  env: Record<string, string>,
  flags: Partial<RepliesRunFlags> = {},
  deps: Pick<RepliesRunDeps, "sleep" | "onInterrupt"> = {},
): Promise<{ code: number; lines: Json[]; out: string; stderr: string }> {
  const io = captureIo({ env: { NO_COLOR: "1", ...env }, cwd: b.world.dir, clock: () => b.sb.clock.nowMs() });
  const v = virtual(b);
  const outcome = await repliesRunCommand(
    ["campaign"],
    {
      baseUrl: b.sb.baseUrl,
      json: true,
      once: true,
      webhooks: false,
      state: ".campaignctl/replies",
      ...flags,
    },
    io,
    {
      session: v,
      sleep: v.sleep,
      now: () => b.sb.clock.nowMs(),
      onInterrupt: () => () => {},
      backoffMs: 1000,
      ...deps,
    },
  );
  // One JSON line per event, or one error document (indented) when the run stops before it starts.
  const out = io.out();
  const lines = out.startsWith("{\n")
    ? [JSON.parse(out) as Json]
    : out
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Json);
  for (const line of lines)
    expect(schemaErrors(line.error === true ? "error-result" : "replies-run-line", line)).toEqual([]);
  return { code: exitCodeOf(outcome), lines, out: io.out(), stderr: io.err() };
}

/** `replies plan --json` over `campaign/`: its exit code and its document. */
export async function repliesPlan(
  b: Bed,
  env: Record<string, string>,
  flags: Partial<RepliesPlanFlags> = {},
): Promise<{ code: number; doc: Json; stderr: string }> {
  const io = captureIo({ env: { NO_COLOR: "1", ...env }, cwd: b.world.dir, clock: () => b.sb.clock.nowMs() });
  const outcome = await repliesPlanCommand(
    ["campaign"],
    { baseUrl: b.sb.baseUrl, json: true, ...flags },
    io,
    { session: virtual(b) },
  );
  const doc = JSON.parse(io.out());
  expect(schemaErrors(doc.error === true ? "error-result" : "replies-plan", doc)).toEqual([]);
  return { code: exitCodeOf(outcome), doc, stderr: io.err() };
}

/**
 * With each county's own key: `replies plan` plans the one answer to contact 1 of county `i` (who
 * asked "where do I vote?"), and `replies run` sends it with county `i`'s key, the run's one write;
 * each county lists its own conversations with its own key, the parent's never.
 */
export async function expectAnswerWithCountyKey(b: Bed, i: number): Promise<void> {
  const planned = await repliesPlan(b, orgKeys(b));
  expect(planned.code, planned.stderr).toBe(0);
  expect(planned.doc.totals.answer).toBe(1);

  const run = await repliesRun(b, orgKeys(b));
  expect(run.code, run.out + run.stderr).toBe(0);
  const answered = run.lines.filter((l) => l.type === "inbound" && l.outcome === "answered");
  expect(answered.map((l) => l.rule)).toEqual(["where"]);
  const entries = await log(b);
  expect(replyPosts(entries).map((r) => [r.key_organization_id, r.status])).toEqual([
    [b.world.orgs[i - 1]?.id, 202],
  ]);
  expect(writes(entries)).toHaveLength(1);
  expect(entries.every((r) => r.key_organization_id !== PARENT_ORG)).toBe(true);
  const listers = new Set(
    entries.filter((r) => r.route === "/conversations").map((r) => r.key_organization_id),
  );
  expect(listers).toEqual(new Set(b.world.orgs.map((o) => o.id)));
}

/**
 * With only the parent's key, an inbound waiting: `replies plan` and `replies run` refuse the answer
 * before any write, one `apply.cross-organization-key` per county at `files` (in order), each naming
 * the flag; with the flag the answer goes, with the parent's key.
 */
export async function expectAnswerRefusedThenAllowed(b: Bed, files: readonly string[]): Promise<void> {
  const planned = await repliesPlan(b, PARENT_ONLY);
  expect(planned.code).toBe(1);
  expect(planned.stderr).toContain("apply.cross-organization-key");
  expect(planned.stderr).toContain(FLAG);

  const refused = await repliesRun(b, PARENT_ONLY);
  expect(refused.code).toBe(1);
  const error = refused.lines[0];
  expect(error.error).toBe(true);
  expect(error.diagnostics.map((d: Json) => [d.code, d.range.file])).toEqual(
    files.map((file) => ["apply.cross-organization-key", file]),
  );
  for (const d of error.diagnostics) expect(d.hint).toContain(FLAG);
  expect(writes(await log(b))).toEqual([]);

  const allowed = await repliesRun(b, PARENT_ONLY, { allowCrossOrganizationKey: true });
  expect(allowed.code, allowed.out).toBe(0);
  expect(replyPosts(await log(b)).map((r) => [r.key_organization_id, r.status])).toEqual([[PARENT_ORG, 202]]);
}

/**
 * With each county's own key, `apply --json` syncs every county's list (`accepted` contacts each),
 * each upsert with its own county's key.
 */
export async function expectListsSyncedWithOwnKeys(
  b: Bed,
  listId: (i: number) => string,
  accepted: number,
): Promise<void> {
  const run = await apply(b, orgKeys(b), { json: true });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const doc = JSON.parse(run.stdout);
  expect(doc.email.lists.map((l: Json) => [l.address, l.state, l.accepted])).toEqual(
    b.world.orgs.map((o) => [`o${o.index}-volunteers`, "synced", accepted]),
  );
  const posts = upserts(await log(b));
  expect(posts.map((r) => [r.path, r.key_organization_id, r.status]).sort()).toEqual(
    b.world.orgs.map((o) => [`/email/lists/${listId(o.index)}/contacts`, o.id, 200]).sort(),
  );
}

/** An apply result whose every email list failed before any write: the cross-organization code, naming the flag. */
export function expectListsRefused(doc: Json): void {
  expect(doc.email.lists.map((l: Json) => l.state)).toEqual(["failed", "failed", "failed"]);
  for (const list of doc.email.lists) {
    expect(list.diagnostics.map((d: Json) => d.code)).toEqual(["apply.cross-organization-key"]);
    expect(list.diagnostics[0].message).toContain(FLAG);
  }
}
