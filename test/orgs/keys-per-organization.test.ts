/**
 * Keys per organization (issue 26, items 4 and 5), over real HTTP against the sandbox on loopback:
 * each organization's requests go with its own key (the sandbox's request log records the key's
 * organization), organizations interleave, one organization drifted or with a refused key does not
 * hold up the others, a list of another organization is refused before any write, and a parent key
 * without per-organization keys still reads.
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
import { buildOrgWorld, type OrgWorld, PARENT_KEY, PARENT_ORG, writeCampaignFile } from "./world.js";

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

async function bed(orgs: number, projects: number): Promise<Bed> {
  const world = buildOrgWorld(orgs, projects);
  const sb = await startSandbox({ fixture: world.fixture, rateLimits: true });
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

interface LogEntry {
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  readonly route: string | null;
  readonly key_id: string | null;
  readonly key_organization_id: string | null;
  readonly status: number;
}

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
  expect(doc.organizations.map((o: { name: string; state: string }) => `${o.name}:${o.state}`)).toEqual(
    b.world.orgs.map((o) => `${o.name}:done`),
  );
});
