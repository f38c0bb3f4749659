/**
 * A paged listing over several keys (`GET /projects/stats`, 1,000 rows a page by offset), over real
 * HTTP against the sandbox on loopback: a key whose first page failed (its retries spent) while the
 * listing went on to a page it could read has its first page's rows missing, so the listing is
 * incomplete for it; a later page that succeeds must not make it look whole.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { statusCommand } from "../../cli/commands/status.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import type { FixtureProject } from "../../src/sandbox/fixture/types.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { admin } from "../sandbox/helpers.js";
import { adopt, type Bed, closeBeds, io, orgKeys, plan, type Run, virtual } from "./harness.js";
import { buildOrgWorld, type OrgWorld } from "./world.js";

afterEach(closeBeds);

interface LogEntry {
  readonly path: string;
  readonly status: number;
  readonly key_organization_id: string | null;
}

/**
 * Two counties, each with its campaign's project and `extra[i]` more (1,000 more: two pages of
 * statistics), each of them made by `more` from its county's project.
 */
async function bed(
  faults: (world: OrgWorld) => string,
  extra: readonly number[] = [1000, 0],
  more: (p: FixtureProject) => FixtureProject = (p) => p,
): Promise<Bed> {
  const world = buildOrgWorld(2, 1);
  const projects = (world.fixture as unknown as { projects: FixtureProject[] }).projects;
  for (const [o, org] of world.orgs.entries()) {
    const template = projects.find((p) => p.project_id === org.projects[0]?.id);
    if (template === undefined) throw new Error("world");
    for (let i = 0; i < (extra[o] ?? 0); i++)
      projects.push(
        more({
          ...template,
          project_id: `0f00000${o}-0000-4000-8000-${String(i).padStart(12, "0")}`,
          name: `${template.name} ${i}`,
        }),
      );
  }
  return adopt({
    world,
    sb: await startSandbox({ fixture: world.fixture, rateLimits: false, faults: faults(world) }),
  });
}

async function statusAll(b: Bed): Promise<Run> {
  const out = { stdout: "", stderr: "" };
  const outcome = await statusCommand(
    [],
    { baseUrl: b.sb.baseUrl, json: true, color: false, all: true },
    io(b, orgKeys(b), out),
    virtual(b),
  );
  checkCliDocuments(["status", "--json"], out.stdout, b.world.dir);
  return { code: exitCodeOf(outcome), ...out };
}

test("status --all: a key whose first page of statistics failed is named as missing from the listing, though its later page answered", async () => {
  // Four attempts (the first and three retries) of the second county's first page fail.
  const b = await bed((w) => `GET /projects/stats: status(500) n=4 org=${w.orgs[1]?.id}`);
  const [adams, baker] = b.world.orgs;
  if (adams === undefined || baker === undefined) throw new Error("world");
  const run = await statusAll(b);
  const stats = ((await admin(b.sb, "GET", "/requests")).body.data.requests as LogEntry[]).filter(
    (r) => r.path === "/projects/stats" && r.key_organization_id === baker.id,
  );
  // Its first page failed four times, then its second page (read because the first county has more) answered.
  expect(stats.slice(0, 5).map((r) => r.status)).toEqual([500, 500, 500, 500, 200]);
  const listed = new Set((JSON.parse(run.stdout).projects as { id: string }[]).map((p) => p.id));
  expect(listed.size).toBe(1001);
  expect(listed.has(baker.projects[0]?.id ?? "")).toBe(false);
  expect(run.stderr).toContain(
    `error[api.listing-incomplete]: the key in ${baker.variable} could not be read (GET /projects/stats answered 500 INTERNAL_ERROR)`,
  );
  expect(run.code).toBe(1);
});

test("status --all: two organizations of more than a page each are listed whole (each key paged by its own offset)", async () => {
  const b = await bed(() => "", [1000, 1000]);
  const run = await statusAll(b);
  const listed = new Set((JSON.parse(run.stdout).projects as { id: string }[]).map((p) => p.id));
  // Before, the merged page's 2,000 rows were taken as the next offset of both keys: the last
  // project of each county was never read, and the listing said nothing.
  expect(listed.size).toBe(2002);
  expect(run.stderr).not.toContain("listing-incomplete");
  expect(run.code).toBe(0);
});

test("plan: a budget over every organization counts the rows past each key's first page", async () => {
  const b = await bed(
    () => "",
    [1001, 1001],
    (p) => ({
      ...p,
      status: "completed",
      updated_at: "2026-12-01T09:00:00.000Z",
      stats: { actual_cost: "1.0000" },
    }),
  );
  writeFileSync(
    join(b.world.dir, "campaign", "campaignctl.policy.yaml"),
    "version: 1\nrules:\n  budgets: [{usd: 2001, per: month}]\n",
  );
  const planned = await plan(b, orgKeys(b), { json: true });
  const doc = JSON.parse(planned.stdout) as { budgets: { spent_cents: number | null; held: string[] }[] };
  // 2,002 projects of $1 in the period: before, 2,000 of them were counted, and the budget passed.
  expect(doc.budgets[0]?.spent_cents).toBe(200_200);
  expect(doc.budgets[0]?.held).toEqual(b.world.orgs.map((o) => o.projects[0]?.address));
});
