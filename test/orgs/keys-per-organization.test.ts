/**
 * Keys per organization (issue 26, items 4 and 5), over real HTTP against the sandbox on loopback:
 * each organization's requests go with its own key (the sandbox's request log records the key's
 * organization), organizations interleave, one organization drifted or with a refused key does not
 * hold up the others, a list of another organization is refused before any write, and a parent key
 * without per-organization keys still reads.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { applyCommand } from "../../cli/commands/apply.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { admin } from "../sandbox/helpers.js";
import {
  adopt,
  apply,
  type Bed,
  bed,
  closeBeds,
  io,
  type LogEntry,
  orgKeys,
  plan,
  type Run,
  type Section,
  virtual,
} from "./harness.js";
import { PARENT_KEY, PARENT_ORG, writeCampaignFile } from "./world.js";

afterEach(closeBeds);

async function requests(sb: SandboxHandle): Promise<LogEntry[]> {
  return (await admin(sb, "GET", "/requests")).body.data.requests as LogEntry[];
}

async function scheduledIds(sb: SandboxHandle): Promise<Set<string>> {
  const effects = (await admin(sb, "GET", "/effects")).body.data.effects as {
    project_id: string;
    kind: string;
    changed: boolean;
  }[];
  return new Set(effects.filter((e) => e.kind === "schedule" && e.changed).map((e) => e.project_id));
}

/** The project id a request is about (`/projects/{id}...`), else null. */
function projectOf(path: string): string | null {
  return /^\/projects\/([0-9a-f-]{36})/.exec(path)?.[1] ?? null;
}

test("every request goes with its own organization's key, and the organizations interleave", async () => {
  const b = await bed(3, 2);
  const run = await apply(b, orgKeys(b), { json: true });
  expect(run.stderr).not.toContain("pc_live_");
  expect(run.code).toBe(0);
  const scheduled = await scheduledIds(b.sb);
  expect(scheduled.size).toBe(6);

  const log = await requests(b.sb);
  const orgOfProject = new Map(b.world.orgs.flatMap((o) => o.projects.map((p) => [p.id, o.id] as const)));
  // No request used the parent's key (it is not even in the environment), and each project's
  // requests went with its own organization's key.
  expect(log.every((r) => r.key_organization_id !== PARENT_ORG && r.key_organization_id !== null)).toBe(true);
  for (const r of log) {
    const project = projectOf(r.path);
    if (project !== null) expect(r.key_organization_id).toBe(orgOfProject.get(project));
  }
  // Every organization read its own catalogs and sent its own schedules.
  for (const o of b.world.orgs) {
    const own = log.filter((r) => r.key_organization_id === o.id);
    expect(own.some((r) => r.route === "/organizations")).toBe(true);
    expect(own.some((r) => r.route === "/contact-lists")).toBe(true);
    expect(own.filter((r) => r.method === "POST").length).toBe(2);
  }
  // Interleaving: the organizations' requests are not one block after another.
  const sequence = log.map((r) => r.key_organization_id);
  const switches = sequence.filter((k, i) => i > 0 && k !== sequence[i - 1]).length;
  expect(switches).toBeGreaterThan(b.world.orgs.length);

  const doc = JSON.parse(run.stdout);
  expect(doc.organizations.map((o: Section) => `${o.organization?.name}:${o.state}`)).toEqual(
    b.world.orgs.map((o) => `${o.name}:done`),
  );
});

test("one organization drifted: only its project is blocked, the others apply, exit 4 names it", async () => {
  const b = await bed(3, 2);
  const [, baker] = b.world.orgs;
  if (baker === undefined) throw new Error("world");
  const drifted = baker.projects[0];
  const record = drifted === undefined ? undefined : b.sb.store.world.projects[drifted.id];
  if (record === undefined || drifted === undefined) throw new Error("world");
  record.message_text = "Hi {{first_name|friend}}, vote Wednesday. Reply STOP to opt out";

  const planned = await plan(b, orgKeys(b), { json: true });
  expect(planned.code).toBe(1);
  const planDoc = JSON.parse(planned.stdout);
  expect(planDoc.organizations.map((o: Section) => `${o.organization?.name}:${o.state}`)).toEqual([
    "Adams County Democrats:ready",
    "Baker County Democrats:blocked",
    "Clark County Democrats:ready",
  ]);

  const markdown = await plan(b, orgKeys(b), { markdown: "plan.md" });
  expect(markdown.code).toBe(1);
  expect(markdown.stdout).toMatch(
    /Organizations:\n {2}Adams County Democrats: ready; 2 projects, 2 to do[^\n]*\n {2}Baker County Democrats: BLOCKED[^\n]*1 drifted/,
  );
  expect(readFileSync(join(b.world.dir, "plan.md"), "utf8")).toMatch(
    /\*\*Organizations:\*\*\n\n- Adams County Democrats: ready[^\n]*\n- Baker County Democrats: BLOCKED/,
  );

  const run = await apply(b, orgKeys(b), { markdown: "apply.md" });
  expect(run.code).toBe(4);
  expect(readFileSync(join(b.world.dir, "apply.md"), "utf8")).toMatch(/- Baker County Democrats: BLOCKED/);
  expect(run.stdout).toContain("Organizations:");
  expect(run.stdout).toMatch(/Baker County Democrats: BLOCKED[^\n]*1 done, 1 blocked/);
  expect(run.stdout).toMatch(/Adams County Democrats: done; 2 projects, 2 done/);
  const scheduled = await scheduledIds(b.sb);
  expect(scheduled.has(drifted.id)).toBe(false);
  expect(scheduled.size).toBe(5);

  const json = await apply(b, orgKeys(b), { json: true });
  expect(json.code).toBe(4);
  const states = JSON.parse(json.stdout).organizations.map(
    (o: Section) => `${o.organization?.name}:${o.state}`,
  );
  expect(states).toEqual([
    "Adams County Democrats:done",
    "Baker County Democrats:blocked",
    "Clark County Democrats:done",
  ]);
});

test("a list or number of another organization is refused before any write, whatever key sees it", async () => {
  const b = await bed(3, 1);
  const [adams, baker] = b.world.orgs;
  if (adams === undefined || baker === undefined) throw new Error("world");
  b.world.fixture.contact_lists?.push({
    id: "0e000000-0000-4000-8002-000000000002",
    name: "Baker Volunteers",
    organization_id: baker.id,
    brand_id: "0b000000-0000-4000-8000-000000000002",
    created_at: "2026-11-10T00:00:00Z",
    contacts: [],
  } as never);
  await b.sb.close();
  const sb = await startSandbox({ fixture: b.world.fixture, rateLimits: true });
  const b2 = adopt({ world: b.world, sb });
  writeCampaignFile(b.world.dir, adams, (doc) => {
    const defaults = doc.defaults as Record<string, unknown>;
    defaults.contact_lists = ["Baker Volunteers"];
    defaults.suppression_lists = [baker.suppressionId];
  });
  // With the parent's key too: it can see Baker's list, and it still may not be used for Adams.
  const env = { ...orgKeys(b2), CAMPAIGNCTL_API_KEY: PARENT_KEY };
  const planned = await plan(b2, env, { json: true });
  expect(planned.code).toBe(1);
  const doc = JSON.parse(planned.stdout);
  const project = doc.projects.find((p: { address: string }) => p.address === "o1-gotv-1");
  const codes = project.diagnostics.map(
    (d: { code: string; range?: { file: string; start: { line: number } } }) => [d.code, d.range?.file],
  );
  expect(codes).toEqual([
    ["plan.reference-other-organization", adams.file],
    ["plan.reference-other-organization", adams.file],
  ]);
  expect(project.diagnostics[0].message).toContain('"Baker County Democrats"');
  expect(project.diagnostics[0].range.start.line).toBeGreaterThan(1);

  const run = await apply(b2, env, { json: true });
  expect(run.code).toBe(4);
  const log = await requests(sb);
  const adamsProject = adams.projects[0]?.id;
  expect(log.filter((r) => r.method === "POST" && projectOf(r.path) === adamsProject)).toEqual([]);
  expect((await scheduledIds(sb)).size).toBe(2);
});

test("a parent key without keys per organization still reads; its writes keep the cross-organization rule", async () => {
  const b = await bed(2, 1);
  const planned = await plan(b, { CAMPAIGNCTL_API_KEY: PARENT_KEY }, { json: true });
  const doc = JSON.parse(planned.stdout);
  expect(doc.projects.every((p: { live: unknown }) => p.live !== null)).toBe(true);
  const blocks = doc.projects.flatMap((p: { actions: { block?: { codes: string[] } }[] }) =>
    p.actions.map((a) => a.block?.codes),
  );
  expect(blocks).toEqual([["apply.cross-organization-key"], ["apply.cross-organization-key"]]);
  const log = await requests(b.sb);
  expect(new Set(log.map((r) => r.key_organization_id))).toEqual(new Set([PARENT_ORG]));

  // The parent key for one organization, that organization's own key for the other.
  const [adams, baker] = b.world.orgs;
  if (adams === undefined || baker === undefined) throw new Error("world");
  await admin(b.sb, "DELETE", "/requests");
  const run = await apply(
    b,
    { CAMPAIGNCTL_API_KEY: PARENT_KEY, [adams.variable]: adams.key },
    { json: true },
  );
  expect(run.code).toBe(4);
  const states = JSON.parse(run.stdout).organizations.map(
    (o: Section) => `${o.organization?.name}:${o.state}`,
  );
  expect(states).toEqual(["Adams County Democrats:done", "Baker County Democrats:blocked"]);
  const posts = (await requests(b.sb)).filter((r) => r.method === "POST");
  expect(posts.map((r) => r.key_organization_id)).toEqual([adams.id]);
});

test("a key in another organization's variable stops the run before anything is read with it", async () => {
  const b = await bed(2, 1);
  const [adams, baker] = b.world.orgs;
  if (adams === undefined || baker === undefined) throw new Error("world");
  const run = await apply(b, { [adams.variable]: baker.key, [baker.variable]: baker.key }, { json: true });
  expect(run.code).toBe(1);
  expect(run.stdout).toContain("api.key-organization-mismatch");
  expect(run.stdout).toContain(adams.variable);
  expect(run.stdout).not.toContain(baker.key);
  const log = await requests(b.sb);
  expect(log.filter((r) => r.method === "POST")).toEqual([]);
  expect(log.map((r) => r.route)).toEqual(["/organizations", "/organizations"]);
});

test("a key in an organization's variable that is the default key's is checked too", async () => {
  const b = await bed(2, 1);
  const [adams, baker] = b.world.orgs;
  if (adams === undefined || baker === undefined) throw new Error("world");
  // The parent's key, pasted into Adams's variable as well as CAMPAIGNCTL_API_KEY.
  const env = { CAMPAIGNCTL_API_KEY: PARENT_KEY, [adams.variable]: PARENT_KEY, [baker.variable]: baker.key };
  const run = await plan(b, env, { json: true });
  expect(run.code).toBe(1);
  const d = JSON.parse(run.stdout).diagnostics.find(
    (x: { code: string }) => x.code === "api.key-organization-mismatch",
  );
  expect(d?.message).toContain(adams.variable);
  expect(run.stdout).not.toContain(PARENT_KEY);
  expect((await requests(b.sb)).filter((r) => projectOf(r.path) !== null)).toEqual([]);
});

test("a refused key fails only its own organization; the others apply", async () => {
  const b = await bed(3, 1);
  const [, , clark] = b.world.orgs;
  if (clark === undefined) throw new Error("world");
  const env = { ...orgKeys(b), [clark.variable]: "pc_live_sbx_revoked_000000" };
  const run = await apply(b, env, { json: true });
  expect(run.code).toBe(4);
  const doc = JSON.parse(run.stdout);
  expect(doc.organizations.map((o: Section) => `${o.organization?.name}:${o.state}`)).toEqual([
    "Adams County Democrats:done",
    "Baker County Democrats:done",
    "Clark County Democrats:failed",
  ]);
  expect(doc.unreadable.map((u: { address: string }) => u.address)).toEqual(["o3-gotv-1"]);
  expect(run.stdout).not.toContain("pc_live_sbx_revoked");
  expect((await scheduledIds(b.sb)).size).toBe(2);
});

test("with no key for an organization and no default key, the run names the variable to set", async () => {
  const b = await bed(2, 1);
  const [adams, baker] = b.world.orgs;
  if (adams === undefined || baker === undefined) throw new Error("world");
  const run = await plan(b, { [adams.variable]: adams.key }, { json: true });
  expect(run.code).toBe(1);
  const doc = JSON.parse(run.stdout);
  const d = doc.diagnostics.find((x: { code: string }) => x.code === "api.no-organization-key");
  expect(d.message).toContain(baker.variable);
  expect(d.range.file).toBe(baker.file);
  expect((await requests(b.sb)).filter((r) => r.key_organization_id !== adams.id)).toEqual([]);

  // A key under a near-miss variable name: checked, it belongs to Baker, and the error names the
  // variable to put it in (never the key).
  const typo = `${baker.variable.slice(0, -1)}`;
  const again = await plan(b, { [adams.variable]: adams.key, [typo]: baker.key }, { json: true });
  expect(again.code).toBe(1);
  const mismatch = JSON.parse(again.stdout).diagnostics.find(
    (x: { code: string }) => x.code === "api.key-organization-mismatch",
  );
  expect(mismatch.message).toContain(typo);
  expect(mismatch.hint).toContain(`put that key in ${baker.variable}`);
  expect(again.stdout).not.toContain(baker.key);
});

test("the saved plan covers every organization and is refused as a whole when one part is stale", async () => {
  const b = await bed(3, 1);
  const saved = await plan(b, orgKeys(b), { out: "plan.json" });
  expect(saved.code).toBe(0);
  checkCliDocuments(["plan", "--out", "plan.json"], "", b.world.dir);
  const doc = JSON.parse(readFileSync(join(b.world.dir, "plan.json"), "utf8"));
  expect(doc.organizations.map((o: Section) => o.projects)).toEqual([
    ["o1-gotv-1"],
    ["o2-gotv-1"],
    ["o3-gotv-1"],
  ]);

  // One organization's project is edited in the dashboard after the review.
  const clark = b.world.orgs[2]?.projects[0];
  const record = clark === undefined ? undefined : b.sb.store.world.projects[clark.id];
  if (record === undefined) throw new Error("world");
  record.message_text = "Hi {{first_name|friend}}, vote Wednesday. Reply STOP to opt out";
  record.updated_at = "2026-11-30T00:00:00.000Z";
  await admin(b.sb, "DELETE", "/requests");
  const refused = await applyPlanFile(b, orgKeys(b));
  expect(refused.code).toBe(1);
  expect(JSON.parse(refused.stdout).refused.length).toBeGreaterThan(0);
  expect((await requests(b.sb)).filter((r) => r.method === "POST")).toEqual([]);
  expect((await scheduledIds(b.sb)).size).toBe(0);
});

test("--sandbox gives each organization of the fixture its own key", async () => {
  const b = await bed(2, 1);
  writeFileSync(join(b.world.dir, "world.json"), JSON.stringify(b.world.fixture));
  const run = await apply(b, {}, { sandbox: true, fixture: "world.json", baseUrl: undefined, json: true });
  // With the root key alone, each project's schedule would be blocked (a key of another organization).
  expect(run.code).toBe(0);
  const doc = JSON.parse(run.stdout);
  expect(doc.summary.done).toBe(2);
  expect(doc.organizations.map((o: Section) => `${o.organization?.name}:${o.state}`)).toEqual([
    "Adams County Democrats:done",
    "Baker County Democrats:done",
  ]);
});

async function applyPlanFile(b: Bed, env: Record<string, string>): Promise<Run> {
  const out = { stdout: "", stderr: "" };
  const v = virtual(b);
  const outcome = await applyCommand(
    ["plan.json"],
    { parallelism: 4, target: [], exclude: [], color: false, baseUrl: b.sb.baseUrl, json: true },
    io(b, env, out),
    { session: v, clock: v.clock, sleep: v.sleep, ask: async () => "" },
  );
  checkCliDocuments(["apply", "--json"], out.stdout, b.world.dir);
  return { code: exitCodeOf(outcome), ...out };
}

test("an organization written by id finds its key through what the keys list", async () => {
  const b = await bed(2, 1);
  for (const o of b.world.orgs)
    writeCampaignFile(b.world.dir, o, (doc) => {
      doc.organization = o.id;
    });
  const run = await apply(b, orgKeys(b), { json: true });
  expect(run.code).toBe(0);
  const log = await requests(b.sb);
  for (const o of b.world.orgs) {
    const post = log.find((r) => r.method === "POST" && projectOf(r.path) === o.projects[0]?.id);
    expect(post?.key_organization_id).toBe(o.id);
  }
});
