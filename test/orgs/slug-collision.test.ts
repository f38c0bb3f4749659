/**
 * Two organizations whose names give the same variable (`A.B County` and `A B County` are both
 * CAMPAIGNCTL_API_KEY_A_B_COUNTY): the one variable cannot be the key of both, so the run stops
 * before any request about either organization's projects is made with it.
 */
import { rmSync } from "node:fs";
import { afterEach, expect, test } from "vitest";
import { type PlanFlags, planCommand } from "../../cli/commands/plan.js";
import type { Io } from "../../cli/output/io.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { admin } from "../sandbox/helpers.js";
import { buildOrgWorld, type OrgWorld, type OrgWorldOrg, writeCampaignFile } from "./world.js";

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

function rename(world: OrgWorld, index: number, name: string): OrgWorldOrg {
  const org = world.orgs[index] as OrgWorldOrg;
  const f = world.fixture as unknown as Record<string, Record<string, unknown>[]>;
  for (const o of f.organizations ?? []) if (o.id === org.id) o.name = name;
  for (const b of f.brands ?? []) if (b.organization_id === org.id) b.name = name;
  const renamed = { ...org, name };
  writeCampaignFile(world.dir, renamed);
  return renamed;
}

test("two organizations whose names give one variable: an error, never one key for both", async () => {
  const world = buildOrgWorld(2, 1);
  const a = rename(world, 0, "A.B County");
  const b = rename(world, 1, "A B County");
  const sb: SandboxHandle = await startSandbox({ fixture: world.fixture, rateLimits: true });
  cleanup.push(async () => {
    await sb.close();
    rmSync(world.dir, { recursive: true, force: true });
  });
  const out = { stdout: "", stderr: "" };
  const io: Io = {
    stdout: (t) => {
      out.stdout += t;
    },
    stderr: (t) => {
      out.stderr += t;
    },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    env: { NO_COLOR: "1", CAMPAIGNCTL_API_KEY_A_B_COUNTY: a.key },
    cwd: world.dir,
    clock: () => sb.clock.nowMs(),
  };
  const flags: PlanFlags = {
    target: [],
    exclude: [],
    color: false,
    baseUrl: sb.baseUrl,
    refresh: true,
    json: true,
  } as PlanFlags;
  const outcome = await planCommand(["campaign"], flags, io, {
    clock: { now: () => sb.clock.nowMs() },
    sleep: (ms: number) => sb.clock.advance(ms),
  });
  checkCliDocuments(["plan", "--json"], out.stdout, world.dir);
  expect(exitCodeOf(outcome)).toBe(1);
  const doc = JSON.parse(out.stdout);
  const d = doc.diagnostics.find((x: { code: string }) => x.code === "api.key-organization-mismatch");
  expect(d?.message).toContain("CAMPAIGNCTL_API_KEY_A_B_COUNTY");
  expect(d?.message).toContain("A.B County");
  expect(d?.message).toContain("A B County");
  expect(d?.range?.file).toBe(b.file);
  expect(out.stdout).not.toContain(a.key);
  const log = (await admin(sb, "GET", "/requests")).body.data.requests as { path: string }[];
  expect(log.filter((r) => r.path.startsWith("/projects"))).toEqual([]);
});
