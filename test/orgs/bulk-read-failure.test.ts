/**
 * One organization's key failing a bulk read during plan's refresh (issue 26, item 5), over real
 * HTTP against the sandbox on loopback with fault injection aimed at that organization's key
 * (`org=`): after the client's retries, only that organization's projects are unreadable (with the
 * diagnostic), the others plan and apply.
 */
import { rmSync } from "node:fs";
import { afterEach, expect, test } from "vitest";
import { type ApplyFlags, applyCommand } from "../../cli/commands/apply.js";
import { type PlanFlags, planCommand } from "../../cli/commands/plan.js";
import type { Io } from "../../cli/io.js";
import { exitCodeOf } from "../../cli/outcome.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { checkCliDocuments, checkJournals } from "../helpers/documents.js";
import { admin } from "../sandbox/helpers.js";
import { buildOrgWorld, type OrgWorld } from "./world.js";

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

async function bed(orgs: number, projects: number, faults: (world: OrgWorld) => string): Promise<Bed> {
  const world = buildOrgWorld(orgs, projects);
  const sb = await startSandbox({ fixture: world.fixture, rateLimits: true, faults: faults(world) });
  const b = { world, sb };
  open.push(b);
  return b;
}

/** Every organization's own key, as the naming rule wants it. */
function orgKeys(b: Bed): Record<string, string> {
  return Object.fromEntries(b.world.orgs.map((o) => [o.variable, o.key]));
}

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
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

async function plan(b: Bed, env: Record<string, string>, flags: Partial<PlanFlags> = {}): Promise<Run> {
  const out = { stdout: "", stderr: "" };
  const outcome = await planCommand(
    ["campaign"],
    { target: [], exclude: [], color: false, baseUrl: b.sb.baseUrl, refresh: true, ...flags },
    io(b, env, out),
    virtual(b),
  );
  if (flags.json === true) checkCliDocuments(["plan", "--json"], out.stdout, b.world.dir);
  return { code: exitCodeOf(outcome), ...out };
}

async function apply(b: Bed, env: Record<string, string>, flags: Partial<ApplyFlags> = {}): Promise<Run> {
  const out = { stdout: "", stderr: "" };
  const v = virtual(b);
  const outcome = await applyCommand(
    ["campaign"],
    {
      parallelism: 4,
      target: [],
      exclude: [],
      color: false,
      baseUrl: b.sb.baseUrl,
      autoApprove: true,
      refresh: true,
      ...flags,
    },
    io(b, env, out),
    { session: v, clock: v.clock, sleep: v.sleep, ask: async () => "" },
  );
  if (flags.json === true) checkCliDocuments(["apply", "--json"], out.stdout, b.world.dir);
  checkJournals(b.world.dir);
  return { code: exitCodeOf(outcome), ...out };
}

interface Section {
  readonly organization: { readonly id: string; readonly name: string | null } | null;
  readonly state: string;
  readonly projects: readonly string[];
}

interface LogEntry {
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  readonly route: string | null;
  readonly key_id: string | null;
  readonly key_organization_id: string | null;
  readonly status: number;
}

async function scheduledIds(sb: SandboxHandle): Promise<Set<string>> {
  const effects = (await admin(sb, "GET", "/effects")).body.data.effects as {
    project_id: string;
    kind: string;
    changed: boolean;
  }[];
  return new Set(effects.filter((e) => e.kind === "schedule" && e.changed).map((e) => e.project_id));
}

/** Every request that failed with the fault, by the organization of its key. */
async function faulted(sb: SandboxHandle): Promise<Set<string | null>> {
  const log = (await admin(sb, "GET", "/requests")).body.data.requests as (LogEntry & {
    fault: string | null;
  })[];
  return new Set(log.filter((r) => r.fault !== null).map((r) => r.key_organization_id));
}

for (const route of ["/contact-lists", "/projects/stats"] as const)
  test(`GET ${route} failing for one organization's key: only that organization is unreadable; the others apply`, async () => {
    const b = await bed(3, 2, (w) => `GET ${route}: status(500) org=${w.orgs[1]?.id}`);
    const [adams, baker, clark] = b.world.orgs;
    if (adams === undefined || baker === undefined || clark === undefined) throw new Error("world");

    const planned = await plan(b, orgKeys(b), { json: true });
    expect(planned.code).toBe(1);
    const planDoc = JSON.parse(planned.stdout);
    expect(planDoc.organizations.map((o: Section) => `${o.organization?.name}:${o.state}`)).toEqual([
      "Adams County Democrats:ready",
      "Baker County Democrats:failed",
      "Clark County Democrats:ready",
    ]);
    // Only Baker's projects are unreadable, each with the diagnostic naming the read that failed.
    type PlanProject = { address: string; diagnostics: { code: string; message: string }[] };
    const unreadable = (planDoc.projects as PlanProject[]).filter((p) =>
      p.diagnostics.some((d) => d.code === "plan.project-unreadable"),
    );
    expect(unreadable.map((p) => p.address).sort()).toEqual(baker.projects.map((p) => p.address).sort());
    for (const p of unreadable)
      expect(p.diagnostics.find((d) => d.code === "plan.project-unreadable")?.message).toContain(
        `organization key failed GET ${route}`,
      );
    expect(await faulted(b.sb)).toEqual(new Set([baker.id]));

    const run = await apply(b, orgKeys(b), { json: true });
    expect(run.code).toBe(4);
    const doc = JSON.parse(run.stdout);
    expect(doc.organizations.map((o: Section) => `${o.organization?.name}:${o.state}`)).toEqual([
      "Adams County Democrats:done",
      "Baker County Democrats:failed",
      "Clark County Democrats:done",
    ]);
    const scheduled = await scheduledIds(b.sb);
    expect([...scheduled].sort()).toEqual([...adams.projects, ...clark.projects].map((p) => p.id).sort());
  });

test("every key's bulk read failing fails the refresh as a whole, as with one key", async () => {
  const b = await bed(2, 1, () => "GET /contact-lists: status(500)");
  const run = await plan(b, orgKeys(b), { json: true });
  expect(run.code).toBe(1);
  const doc = JSON.parse(run.stdout);
  expect(doc.plan ?? null).toBeNull();
  expect(run.stdout).toContain("GET /contact-lists");
});
