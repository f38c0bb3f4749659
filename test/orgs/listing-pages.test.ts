/**
 * A paged listing over several keys (`GET /projects/stats`, 1,000 rows a page by offset), over real
 * HTTP against the sandbox on loopback: a key whose first page failed (its retries spent) while the
 * listing went on to a page it could read has its first page's rows missing, so the listing is
 * incomplete for it; a later page that succeeds must not make it look whole.
 */
import { afterEach, expect, test } from "vitest";
import { statusCommand } from "../../cli/commands/status.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import type { FixtureProject } from "../../src/sandbox/fixture/types.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { admin } from "../sandbox/helpers.js";
import { adopt, type Bed, closeBeds, io, orgKeys, type Run, virtual } from "./harness.js";
import { buildOrgWorld, type OrgWorld } from "./world.js";

afterEach(closeBeds);

interface LogEntry {
  readonly path: string;
  readonly status: number;
  readonly key_organization_id: string | null;
}

/** Two counties; the first has 1,001 projects (two pages of statistics), the second one. */
async function bed(faults: (world: OrgWorld) => string): Promise<Bed> {
  const world = buildOrgWorld(2, 1);
  const projects = (world.fixture as unknown as { projects: FixtureProject[] }).projects;
  const first = world.orgs[0]?.projects[0]?.id;
  const template = projects.find((p) => p.project_id === first);
  if (template === undefined) throw new Error("world");
  for (let i = 0; i < 1000; i++)
    projects.push({
      ...template,
      project_id: `0f000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      name: `${template.name} ${i}`,
    });
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
