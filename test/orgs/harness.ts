/**
 * The harness the organization tests over the sandbox share: a generated world of organizations
 * (./world.ts) served by a sandbox on loopback with rate limits on, `plan` and `apply` run in
 * process on the sandbox's virtual clock, every JSON document and journal checked against its
 * schema. Each test file closes its beds with `afterEach(closeBeds)`.
 */
import { rmSync } from "node:fs";
import { type ApplyFlags, applyCommand } from "../../cli/commands/apply.js";
import { type PlanFlags, planCommand } from "../../cli/commands/plan.js";
import type { Io } from "../../cli/output/io.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { checkCliDocuments, checkJournals } from "../helpers/documents.js";
import { buildOrgWorld, type OrgWorld } from "./world.js";

export interface Bed {
  readonly world: OrgWorld;
  readonly sb: SandboxHandle;
}

let open: Bed[] = [];

/**
 * Closes the beds opened since the last call. Each test file registers it itself
 * (`afterEach(closeBeds)`): the suite shares modules between files, so a hook registered here at
 * import would follow only the first file that imports it.
 */
export async function closeBeds(): Promise<void> {
  for (const b of open) {
    await b.sb.close();
    rmSync(b.world.dir, { recursive: true, force: true });
  }
  open = [];
}

/** A bed made by hand (a sandbox restarted on the same world), closed with the others. */
export function adopt(b: Bed): Bed {
  open.push(b);
  return b;
}

export async function bed(
  orgs: number,
  projects: number,
  faults?: (world: OrgWorld) => string,
): Promise<Bed> {
  const world = buildOrgWorld(orgs, projects);
  const sb = await startSandbox({
    fixture: world.fixture,
    rateLimits: true,
    ...(faults === undefined ? {} : { faults: faults(world) }),
  });
  const b = { world, sb };
  open.push(b);
  return b;
}

/** Every organization's own key, as the naming rule wants it. */
export function orgKeys(b: Bed): Record<string, string> {
  return Object.fromEntries(b.world.orgs.map((o) => [o.variable, o.key]));
}

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function io(b: Bed, env: Record<string, string>, out: { stdout: string; stderr: string }): Io {
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

export const virtual = (b: Bed) => ({
  clock: { now: () => b.sb.clock.nowMs() },
  sleep: (ms: number) => b.sb.clock.advance(ms),
});

export async function plan(
  b: Bed,
  env: Record<string, string>,
  flags: Partial<PlanFlags> = {},
): Promise<Run> {
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

export async function apply(
  b: Bed,
  env: Record<string, string>,
  flags: Partial<ApplyFlags> = {},
): Promise<Run> {
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

export interface Section {
  readonly organization: { readonly id: string; readonly name: string | null } | null;
  readonly state: string;
  readonly projects: readonly string[];
}

export interface LogEntry {
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  readonly route: string | null;
  readonly key_id: string | null;
  readonly key_organization_id: string | null;
  readonly status: number;
}
