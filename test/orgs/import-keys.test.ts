/**
 * `import` with keys per organization (issue 26, item 6), over real HTTP against the sandbox on
 * loopback: with only per-organization keys set, every key lists what it sees, each project is read
 * with its own organization's key, and the plan right after the import (same keys) shows nothing to do.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { importCommand } from "../../cli/commands/import.js";
import type { ImportFlags } from "../../cli/commands/import-flags.js";
import { planCommand } from "../../cli/commands/plan.js";
import type { Io } from "../../cli/output/io.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import { validatePlanDocument } from "../../src/report/plan-schema.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin } from "../sandbox/helpers.js";
import { buildOrgWorld, type OrgWorld, PARENT_ORG } from "./world.js";

interface Bed {
  readonly world: OrgWorld;
  readonly sb: SandboxHandle;
}

let open: Bed[] = [];
afterEach(async () => {
  for (const b of open) {
    await b.sb.close();
    rmSync(b.world.dir, { recursive: true, force: true });
  }
  open = [];
});

async function bed(orgs: number, projects: number, faults?: string): Promise<Bed> {
  const world = buildOrgWorld(orgs, projects);
  // The campaign files come from the import: the world's own are removed.
  rmSync(join(world.dir, "campaign"), { recursive: true, force: true });
  const sb = await startSandbox({
    fixture: world.fixture,
    rateLimits: true,
    ...(faults === undefined ? {} : { faults }),
  });
  const b = { world, sb };
  open.push(b);
  return b;
}

function io(b: Bed, env: Record<string, string>, out: { stdout: string; stderr: string }): Io {
  return {
    stdout: (t) => {
      out.stdout += t;
    },
    stderr: (t) => {
      out.stderr += t;
    },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    env: { NO_COLOR: "1", ...env },
    cwd: b.world.dir,
    clock: () => b.sb.clock.nowMs(),
  };
}

const virtual = (b: Bed) => ({
  clock: { now: () => b.sb.clock.nowMs() },
  sleep: (ms: number) => b.sb.clock.advance(ms),
});

function orgKeys(b: Bed): Record<string, string> {
  return Object.fromEntries(b.world.orgs.map((o) => [o.variable, o.key]));
}

async function importing(b: Bed, ids: readonly string[], flags: Partial<ImportFlags>) {
  const out = { stdout: "", stderr: "" };
  const outcome = await importCommand(
    ids,
    { out: "campaigns", color: false, baseUrl: b.sb.baseUrl, ...flags },
    io(b, orgKeys(b), out),
    virtual(b),
  );
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

/**
 * After an import with only per-organization keys: every project was read once, with its own
 * organization's key (the parent's never), and `plan --refresh` of what was written finds nothing
 * to do (a plan document valid against its schema).
 */
async function expectReadByOwnKeysAndPlanClean(b: Awaited<ReturnType<typeof bed>>): Promise<void> {
  const log = await requests(b.sb);
  const owner = new Map(b.world.orgs.flatMap((o) => o.projects.map((p) => [p.id, o.id] as const)));
  expect(log.every((r) => r.key_organization_id !== PARENT_ORG && r.key_organization_id !== null)).toBe(true);
  const reads = log.filter((r) => /^\/projects\/[0-9a-f-]{36}$/.test(r.path));
  // One read per project, with its own organization's key, none refused.
  expect(reads.length).toBe(owner.size);
  for (const r of reads) {
    expect(r.status).toBe(200);
    expect(r.key_organization_id).toBe(owner.get(r.path.slice("/projects/".length)));
  }

  const out = { stdout: "", stderr: "" };
  const planned = await planCommand(
    ["campaigns"],
    {
      target: [],
      exclude: [],
      color: false,
      baseUrl: b.sb.baseUrl,
      refresh: true,
      json: true,
      detailedExitcode: true,
    },
    io(b, orgKeys(b), out),
    virtual(b),
  );
  const checked = validatePlanDocument(JSON.parse(out.stdout));
  if (!checked.ok) throw new Error("plan document invalid");
  expect(checked.plan.projects.map((x) => [x.address, x.drift, x.actions])).toEqual(
    checked.plan.projects.map((x) => [x.address, [], []]),
  );
  expect(checked.plan.projects.length).toBe(owner.size);
  expect(exitCodeOf(planned)).toBe(0);
}

test("import --all with only per-organization keys: each project read with its own key; plan shows nothing to do", async () => {
  const b = await bed(3, 2);
  const imported = await importing(b, [], { all: true });
  expect(imported.stderr).not.toContain("pc_live_");
  expect(imported.stderr).not.toMatch(/NO_KEY|needs CAMPAIGNCTL_API_KEY/);
  expect(imported.code).toBe(0);

  await expectReadByOwnKeysAndPlanClean(b);
});

test("import of project ids by hand with only per-organization keys: read by the key that sees each", async () => {
  const b = await bed(2, 1);
  const ids = b.world.orgs.map((o) => o.projects[0]?.id ?? "");
  const imported = await importing(b, ids, {});
  expect(imported.code).toBe(0);
  const log = await requests(b.sb);
  const owner = new Map(b.world.orgs.flatMap((o) => o.projects.map((p) => [p.id, o.id] as const)));
  const found = log.filter((r) => /^\/projects\/[0-9a-f-]{36}$/.test(r.path) && r.status === 200);
  expect(found.map((r) => [r.path.slice("/projects/".length), r.key_organization_id]).sort()).toEqual(
    ids.map((id) => [id, owner.get(id)]).sort(),
  );
});

test("import --template with only per-organization keys: each project read with its own key; plan shows nothing to do", async () => {
  const b = await bed(3, 2);
  const imported = await importing(b, [], { all: true, template: "gotv" });
  expect(imported.stderr).not.toContain("pc_live_");
  expect(imported.stderr).not.toMatch(/NO_KEY|needs CAMPAIGNCTL_API_KEY/);
  expect(imported.code).toBe(0);
  expect(imported.stdout).toContain("gotv.yaml");

  await expectReadByOwnKeysAndPlanClean(b);
});

test("import whose reads fail keeps routing's warning naming the key that could not be used", async () => {
  // County 1's key fails its check (503, every attempt); the statistics listing fails for every key.
  const county1 = "0c000000-0000-4000-8000-000000000001";
  const b = await bed(
    2,
    1,
    `GET /organizations: status(503) org=${county1}; GET /projects/stats: status(500)`,
  );
  const [adams] = b.world.orgs;
  if (adams?.id !== county1) throw new Error("world");
  const run = await importing(b, [], { all: true });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("GET /projects/stats");
  expect(run.stderr).toContain(`the key in ${adams.variable} could not be used`);
});

for (const fault of ["GET /projects/stats: status(500)", "GET /organizations: status(503)"] as const)
  test(`import --all whose reads missed one organization's key (${fault.split(":")[0]} failing with it) writes the others and fails, naming the key; --check fails too`, async () => {
    const county2 = "0c000000-0000-4000-8000-000000000002";
    const b = await bed(2, 1, `${fault} org=${county2}`);
    const [adams, baker] = b.world.orgs;
    if (adams === undefined || baker?.id !== county2) throw new Error("world");
    const run = await importing(b, [], { all: true });
    expect(run.code).toBe(1);
    const errors = run.stderr.split("\n").filter((l) => l.startsWith("error["));
    expect(errors).toEqual([
      `error[api.listing-incomplete]: the key in ${baker.variable} could not be read (${fault.split(":")[0]} answered ${fault.includes("500") ? "500 INTERNAL_ERROR" : "503 SEND_ENQUEUE_FAILED"}): what it sees is missing from this listing`,
    ]);
    // One finding for the key: the listing's error stands for routing's warning about it.
    expect(run.stderr).not.toContain("could not be used");
    expect(run.stdout).toContain("adams-county-democrats.yaml");
    expect(run.stdout).not.toContain("baker-county-democrats.yaml");
    const checked = await importing(b, [], { all: true, check: true });
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("api.listing-incomplete");
  });

test("import of a project id by hand, while another organization's statistics fail for its key: the project is imported, and nothing fails", async () => {
  const county2 = "0c000000-0000-4000-8000-000000000002";
  const b = await bed(2, 1, `GET /projects/stats: status(500) org=${county2}`);
  const id = b.world.orgs[0]?.projects[0]?.id ?? "";
  const run = await importing(b, [id], {});
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).not.toContain("error[");
  expect(run.stdout).toContain("adams-county-democrats.yaml");
});
