/**
 * `status` and `watch` with keys per organization (issue 26, item 4), over real HTTP against the
 * sandbox on loopback: each organization's reads (and watch's pauses, through the write executor)
 * go with its own key; with only per-organization keys set (no CAMPAIGNCTL_API_KEY) both work; a
 * parent key reads (and pauses) for an organization whose own key is not set.
 */
import { rmSync } from "node:fs";
import { afterEach, expect, test } from "vitest";
import { type StatusFlags, statusCommand } from "../../cli/commands/status.js";
import { type WatchFlags, watchCommand } from "../../cli/commands/watch.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import type { FixtureProject } from "../../src/sandbox/fixture/types.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { admin } from "../sandbox/helpers.js";
import { io, orgKeys, type Run, virtual } from "./harness.js";
import { buildOrgWorld, type OrgWorld, PARENT_KEY, PARENT_ORG, writeCampaignFile } from "./world.js";

interface Bed {
  readonly world: OrgWorld;
  readonly sb: SandboxHandle;
  /** The project that sends and fails every message (the first of the last organization). */
  readonly failing: string;
}

let open: Bed[] = [];
afterEach(async () => {
  for (const b of open) {
    await b.sb.close();
    rmSync(b.world.dir, { recursive: true, force: true });
  }
  open = [];
});

const START_MS = Date.parse("2026-12-01T15:00:00Z");

/**
 * `orgs` organizations of 2 projects; the first project of every organization sends from 10 s after
 * the start, the last organization's fails every message, and each file guards its projects.
 */
async function bed(orgs: number, faults?: (world: OrgWorld) => string): Promise<Bed> {
  const world = buildOrgWorld(orgs, 2);
  const projects = (world.fixture as unknown as { projects: FixtureProject[] }).projects;
  const senders = world.orgs.map((o) => o.projects[0]?.id);
  for (const p of projects)
    if (senders.includes(p.project_id)) {
      p.status = "scheduled";
      p.scheduled_at = new Date(START_MS + 10_000).toISOString();
      p.scheduled_timezone = "America/Chicago";
    }
  for (const o of world.orgs)
    writeCampaignFile(world.dir, o, (doc) => {
      (doc.defaults as Record<string, unknown>).guard = { max_failure_rate: 0.2, min_sample: 1 };
    });
  const failing = world.orgs.at(-1)?.projects[0]?.id;
  if (failing === undefined) throw new Error("world");
  const sb = await startSandbox({
    fixture: world.fixture,
    rateLimits: true,
    timeScale: 0,
    ...(faults === undefined ? {} : { faults: faults(world) }),
  });
  await admin(sb, "PATCH", "/simulation", {
    messages_per_batch: 1,
    batch_interval_ms: 600_000,
    failure_rate: 0,
    reply_rate: 0,
    project_failure_rates: { [failing]: 1 },
  });
  const b = { world, sb, failing };
  open.push(b);
  return b;
}

async function status(b: Bed, env: Record<string, string>, flags: Partial<StatusFlags> = {}): Promise<Run> {
  const out = { stdout: "", stderr: "" };
  const args = flags.all === true || flags.organization !== undefined ? [] : ["campaign"];
  const outcome = await statusCommand(
    args,
    { baseUrl: b.sb.baseUrl, json: true, color: false, ...flags },
    io(b, env, out),
    virtual(b),
  );
  checkCliDocuments(["status", "--json"], out.stdout, b.world.dir);
  return { code: exitCodeOf(outcome), ...out };
}

async function watch(b: Bed, env: Record<string, string>, flags: Partial<WatchFlags> = {}): Promise<Run> {
  const out = { stdout: "", stderr: "" };
  const v = virtual(b);
  const outcome = await watchCommand(
    ["campaign"],
    { baseUrl: b.sb.baseUrl, once: true, json: true, color: false, ...flags },
    io(b, env, out),
    { session: v, sleep: v.sleep, onInterrupt: () => () => {} },
  );
  checkCliDocuments(["watch", "--json"], out.stdout, b.world.dir);
  return { code: exitCodeOf(outcome), ...out };
}

interface LogEntry {
  readonly method: string;
  readonly path: string;
  readonly key_organization_id: string | null;
  readonly status: number;
}

async function requests(sb: SandboxHandle): Promise<LogEntry[]> {
  return (await admin(sb, "GET", "/requests")).body.data.requests as LogEntry[];
}

function projectOf(path: string): string | null {
  return /^\/projects\/([0-9a-f-]{36})/.exec(path)?.[1] ?? null;
}

function orgOfProject(b: Bed): Map<string, string> {
  return new Map(b.world.orgs.flatMap((o) => o.projects.map((p) => [p.id, o.id] as const)));
}

/** Lets the senders send the first of their two messages (the second is 10 minutes later). */
async function sendAll(b: Bed): Promise<void> {
  await admin(b.sb, "POST", "/clock/advance", { ms: 20_000 });
}

test("status with only per-organization keys reads each organization with its own key", async () => {
  const b = await bed(3);
  await sendAll(b);
  const run = await status(b, orgKeys(b));
  expect(run.stderr).not.toContain("pc_live_");
  expect(run.stderr).not.toMatch(/NO_KEY|needs CAMPAIGNCTL_API_KEY/);
  expect(run.code).toBe(0);
  const doc = JSON.parse(run.stdout);
  const ids = (doc.projects as { id: string }[]).map((p) => p.id).sort();
  expect(ids).toEqual(b.world.orgs.flatMap((o) => o.projects.map((p) => p.id)).sort());

  const log = await requests(b.sb);
  expect(log.length).toBeGreaterThan(0);
  expect(log.every((r) => r.key_organization_id !== PARENT_ORG && r.key_organization_id !== null)).toBe(true);
  const owner = orgOfProject(b);
  for (const r of log) {
    const project = projectOf(r.path);
    if (project !== null) expect(r.key_organization_id).toBe(owner.get(project));
  }
  // Every organization's key read the statistics.
  for (const o of b.world.orgs)
    expect(log.some((r) => r.key_organization_id === o.id && r.path.startsWith("/projects/stats"))).toBe(
      true,
    );
});

test("status --all with only per-organization keys lists what every key sees", async () => {
  const b = await bed(2);
  await sendAll(b);
  const run = await status(b, orgKeys(b), { all: true });
  expect(run.code).toBe(0);
  const doc = JSON.parse(run.stdout);
  const listed = new Set((doc.projects as { id: string }[]).map((p) => p.id));
  // The senders have statistics rows in the range: every organization's is listed.
  for (const o of b.world.orgs) expect(listed.has(o.projects[0]?.id ?? "")).toBe(true);
});

test("watch with only per-organization keys pauses with the project's own key", async () => {
  const b = await bed(3);
  await sendAll(b);
  const run = await watch(b, orgKeys(b));
  expect(run.stderr).not.toContain("pc_live_");
  expect(run.code).toBe(2);
  const events = run.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const stop = events.at(-1);
  expect(stop).toMatchObject({ type: "stop", paused: 1, errors: 0 });

  const log = await requests(b.sb);
  expect(log.every((r) => r.key_organization_id !== PARENT_ORG && r.key_organization_id !== null)).toBe(true);
  const owner = orgOfProject(b);
  for (const r of log) {
    const project = projectOf(r.path);
    if (project !== null) expect(r.key_organization_id).toBe(owner.get(project));
  }
  const pauses = log.filter((r) => r.method === "POST" && r.path.endsWith("/pause"));
  expect(pauses.map((r) => [projectOf(r.path), r.key_organization_id])).toEqual([
    [b.failing, owner.get(b.failing)],
  ]);
  expect(b.sb.store.world.projects[b.failing]?.status).toBe("paused");
});

test("watch: the parent key reads and pauses for an organization without its own key", async () => {
  const b = await bed(2);
  await sendAll(b);
  const [adams, baker] = b.world.orgs;
  if (adams === undefined || baker === undefined) throw new Error("world");
  // Baker (whose project fails) has no key of its own: the parent's key reads and pauses for it
  // (a pause sends nothing: the cross-organization rule blocks tests and schedules only).
  const run = await watch(b, { CAMPAIGNCTL_API_KEY: PARENT_KEY, [adams.variable]: adams.key });
  expect(run.code).toBe(2);
  const log = await requests(b.sb);
  const pauses = log.filter((r) => r.method === "POST" && r.path.endsWith("/pause"));
  expect(pauses.map((r) => [projectOf(r.path), r.key_organization_id])).toEqual([[b.failing, PARENT_ORG]]);
  for (const r of log) {
    const project = projectOf(r.path);
    if (project !== null && adams.projects.some((p) => p.id === project))
      expect(r.key_organization_id).toBe(adams.id);
  }
});

test("watch's budget holds per key: no key makes more than 40 requests in a minute", async () => {
  const b = await bed(3);
  await sendAll(b);
  const run = await watch(b, orgKeys(b), { once: false, untilDone: true, interval: 5_000 });
  expect(run.code).toBe(2);
  const stop = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}");
  expect(stop).toMatchObject({ type: "stop", reason: "done", paused: 1 });
  expect(stop.polls).toBeGreaterThan(10);
  const log = (await admin(b.sb, "GET", "/requests")).body.data.requests as {
    at: string;
    key_organization_id: string | null;
  }[];
  for (const o of b.world.orgs) {
    const times = log.filter((r) => r.key_organization_id === o.id).map((r) => Date.parse(r.at));
    for (const t of times)
      expect(times.filter((u) => u >= t && u < t + 60_000).length).toBeLessThanOrEqual(40);
  }
});

/** The warnings (and errors) a run printed to stderr, by the key they name. */
function keyWarnings(run: Run, variable: string): string[] {
  return run.stderr
    .split("\n\n")
    .filter((block) => block.includes(`the key in ${variable} could not be used`));
}

for (const command of ["status", "watch"] as const)
  test(`${command}: a key whose GET /organizations failed (503) is named in a warning that says to run again, not to check the key; the others go on`, async () => {
    const b = await bed(2, (w) => `GET /organizations: status(503) org=${w.orgs[0]?.id}`);
    await sendAll(b);
    const [adams] = b.world.orgs;
    if (adams === undefined) throw new Error("world");
    const run = command === "status" ? await status(b, orgKeys(b)) : await watch(b, orgKeys(b));
    const warned = keyWarnings(run, adams.variable);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain("503");
    expect(warned[0]).toContain("run again");
    expect(warned[0]).not.toContain("check the key");
    // Adams's projects were never read: status says so for each; watch, which could not judge
    // their guards, says so at its stop. Either way the run fails, and the others were read.
    const unread = command === "status" ? "status.project-unreadable" : "watch.project-never-read";
    const failed = run.stderr.split("\n").filter((l) => l.includes(`error[${unread}]`));
    expect(failed).toHaveLength(adams.projects.length);
    // Adams's first project sends: watch never says nothing is sending when it could not read it.
    expect(run.stdout).not.toContain("watch.nothing-sending");
    for (const p of adams.projects)
      expect(failed.some((l) => l.includes(command === "status" ? p.id : p.address))).toBe(true);
    expect(run.code).toBe(1);
  });

test("status: a key the API refused (401) is named in a warning that says to check the key", async () => {
  const b = await bed(2, (w) => `GET /organizations: status(401) org=${w.orgs[0]?.id}`);
  const [adams] = b.world.orgs;
  if (adams === undefined) throw new Error("world");
  const run = await status(b, orgKeys(b));
  const warned = keyWarnings(run, adams.variable);
  expect(warned).toHaveLength(1);
  expect(warned[0]).toContain("check the key");
});

test("status: when every key failed GET /organizations, the failure names the API's answer and routing's warnings are kept", async () => {
  const b = await bed(2, () => "GET /organizations: status(503)");
  const run = await status(b, orgKeys(b));
  expect(run.code).toBe(1);
  for (const o of b.world.orgs) expect(keyWarnings(run, o.variable)).toHaveLength(1);
  expect(run.stderr).toContain("no key is in use");
  expect(run.stderr).not.toContain("refused");
});

/** A watch run's JSON events. */
function eventsOf(run: Run): { type: string; at: string; diagnostic?: { code: string; message: string } }[] {
  return run.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

test("watch: a key that failed at the start (503 past the second read) is checked again a minute later; its organization is then read and guarded with it", async () => {
  // Baker's key fails its two identity reads (4 attempts each), then answers.
  const b = await bed(2, (w) => `GET /organizations: status(503) org=${w.orgs[1]?.id} n=8`);
  await sendAll(b);
  const baker = b.world.orgs[1];
  if (baker === undefined) throw new Error("world");
  const run = await watch(b, orgKeys(b), { once: false, untilDone: true, interval: 5_000 });
  expect(keyWarnings(run, baker.variable)).toHaveLength(1);
  const events = eventsOf(run);
  const usable = events.filter((e) => e.diagnostic?.code === "api.key-usable-again");
  expect(usable).toHaveLength(1);
  expect(usable[0]?.diagnostic?.message).toContain(`the key in ${baker.variable} answers now`);
  // Not before a minute of the API's clock after the start.
  const start = events.find((e) => e.type === "start");
  expect(Date.parse(usable[0]?.at ?? "") - Date.parse(start?.at ?? "")).toBeGreaterThanOrEqual(60_000);
  // The check is one of a poll's own; the files describe no email campaign: no `email_sending`.
  const polls = events.filter((e) => e.type === "poll");
  expect(polls.length).toBeGreaterThan(12);
  for (const p of polls) expect(p).not.toHaveProperty("email_sending");
  // Baker's failing project was then read, its guard tripped, and it was paused with Baker's key.
  expect(run.stderr).not.toContain("watch.project-never-read");
  expect(events.at(-1)).toMatchObject({ type: "stop", reason: "done", paused: 1, errors: 0 });
  expect(run.code).toBe(2);
  const log = await requests(b.sb);
  const pauses = log.filter((r) => r.method === "POST" && r.path.endsWith("/pause"));
  expect(pauses.map((r) => [projectOf(r.path), r.key_organization_id])).toEqual([[b.failing, baker.id]]);
  // Baker's identity: 8 failed attempts, then one that answered; never read again after that.
  const identity = log.filter((r) => r.key_organization_id === baker.id && r.path === "/organizations");
  expect(identity.map((r) => r.status)).toEqual([...Array(8).fill(503), 200]);
});

test("watch: a key the API refused (401) at the start is not checked again: one GET /organizations with it in the whole run", async () => {
  // The second organization's sender keeps sending for minutes (its second message is 10 minutes on).
  const b = await bed(3, (w) => `GET /organizations: status(401) org=${w.orgs[0]?.id}`);
  await sendAll(b);
  const adams = b.world.orgs[0];
  if (adams === undefined) throw new Error("world");
  const run = await watch(b, orgKeys(b), { once: false, untilDone: true, interval: 5_000 });
  const events = eventsOf(run);
  // The run outlasted several minutes of polls: the check had its chances.
  const start = Date.parse(events.find((e) => e.type === "start")?.at ?? "");
  expect(Date.parse(events.at(-1)?.at ?? "") - start).toBeGreaterThan(3 * 60_000);
  expect(events.some((e) => e.diagnostic?.code === "api.key-usable-again")).toBe(false);
  const log = await requests(b.sb);
  expect(log.filter((r) => r.key_organization_id === adams.id && r.path === "/organizations")).toHaveLength(
    1,
  );
  expect(run.stderr).toContain("watch.project-never-read");
  expect(run.code).toBe(1);
});

test("watch: a key checked again that answers for another organization than its variable's is said as an error; the routes stay and nothing goes with it", async () => {
  const b = await bed(2, (w) => `GET /organizations: status(503) org=${w.orgs[1]?.id} n=8`);
  await sendAll(b);
  const [adams, baker] = b.world.orgs;
  if (adams === undefined || baker === undefined) throw new Error("world");
  // Baker's key pasted into Adams's variable; Baker's projects go with the parent's key.
  const env = { CAMPAIGNCTL_API_KEY: PARENT_KEY, [adams.variable]: baker.key };
  const run = await watch(b, env, { once: false, untilDone: true, interval: 5_000 });
  const events = eventsOf(run);
  const codes = events.flatMap((e) => (e.diagnostic === undefined ? [] : [e.diagnostic.code]));
  expect(codes.filter((c) => c === "api.key-organization-mismatch")).toHaveLength(1);
  expect(codes).not.toContain("api.key-usable-again");
  expect(run.stderr).toContain(`the key in ${adams.variable} belongs to organization "${baker.name}"`);
  // Nothing of Adams's projects went with Baker's key (nor by id at all); Baker's pause went with the parent's.
  const log = await requests(b.sb);
  const adamsIds = new Set(adams.projects.map((p) => p.id));
  expect(log.filter((r) => adamsIds.has(projectOf(r.path) ?? ""))).toEqual([]);
  const pauses = log.filter((r) => r.method === "POST" && r.path.endsWith("/pause"));
  expect(pauses.map((r) => [projectOf(r.path), r.key_organization_id])).toEqual([[b.failing, PARENT_ORG]]);
  // The error is the run's: exit 1 (the parent's statistics rows list Adams's projects meanwhile).
  expect(events.at(-1)).toMatchObject({ type: "stop", reason: "done", paused: 1, errors: 1 });
  expect(run.code).toBe(1);
});

test("status --all whose statistics failed for one organization's key lists the others and fails, naming the key", async () => {
  const b = await bed(2, (w) => `GET /projects/stats: status(500) org=${w.orgs[1]?.id}`);
  await sendAll(b);
  const [adams, baker] = b.world.orgs;
  if (adams === undefined || baker === undefined) throw new Error("world");
  const run = await status(b, orgKeys(b), { all: true });
  expect(run.code).toBe(1);
  const listed = new Set((JSON.parse(run.stdout).projects as { id: string }[]).map((p) => p.id));
  expect(listed.has(adams.projects[0]?.id ?? "")).toBe(true);
  expect(listed.has(baker.projects[0]?.id ?? "")).toBe(false);
  expect(run.stderr).toContain(
    `error[api.listing-incomplete]: the key in ${baker.variable} could not be read (GET /projects/stats answered 500 INTERNAL_ERROR)`,
  );
});

test("status --organization: another organization's key missing from the listing is a warning; the organization's own key, an error", async () => {
  const b = await bed(2, (w) => `GET /projects/stats: status(500) org=${w.orgs[1]?.id}`);
  await sendAll(b);
  const [adams, baker] = b.world.orgs;
  if (adams === undefined || baker === undefined) throw new Error("world");
  const other = await status(b, orgKeys(b), { organization: adams.name });
  expect(other.stderr).toContain(`warning[api.listing-incomplete]: the key in ${baker.variable}`);
  expect(other.code).toBe(0);
  const own = await status(b, orgKeys(b), { organization: baker.name });
  expect(own.stderr).toContain(`error[api.listing-incomplete]: the key in ${baker.variable}`);
  expect(own.code).toBe(1);
});
