/**
 * Runs `campaignctl plan` in-process against a sandbox started per case (real HTTP on loopback,
 * rate limits on, frozen virtual clock started at the fixed instant `TEST_NOW`; the command's machine
 * clock starts there too, so the plan's clock and the sandbox's agree and no result depends on the
 * date or hour the suite runs at), with campaign files written to a temp directory.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { Plan, ProjectPlan } from "../../src/plan/types.js";
import { validatePlanDocument } from "../../src/report/plan-schema.js";
import type { FixtureProject } from "../../src/sandbox/fixture/types.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { TEST_NOW } from "../helpers/clock.js";
import { type CliResult, runCli } from "../helpers/run-cli.js";
import { campaignFile, KEY, tempDir, type WorldOptions, world } from "./fixture-builder.js";

export interface CaseInput {
  readonly live: readonly FixtureProject[];
  readonly files: Record<string, Record<string, unknown>>;
  readonly world?: Omit<WorldOptions, "now">;
  readonly args?: readonly string[];
}

export interface CaseResult {
  readonly plan: Plan;
  /** Exit code without and with --detailed-exitcode. */
  readonly code: number;
  readonly detailed: number;
  readonly stdout: string;
  readonly stderr: string;
  project(address: string): ProjectPlan;
}

/** Starts a sandbox with the case's world; `fn` gets it and a temp dir with the case's files. */
export async function withCase<T>(
  input: CaseInput,
  fn: (sandbox: SandboxHandle, dir: string, now: Date) => Promise<T>,
): Promise<T> {
  const now = TEST_NOW;
  const sandbox = await startSandbox({
    fixture: world(input.live, { now, ...input.world }),
    timeScale: 0,
    rateLimits: true,
  });
  const dir = tempDir({ "campaign.yaml": campaignFile(input.files) });
  try {
    return await fn(sandbox, dir, now);
  } finally {
    await sandbox.close();
  }
}

export function planIn(
  sandbox: SandboxHandle,
  dir: string,
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<CliResult> {
  return runCli(["plan", ...args], {
    cwd: dir,
    env: { CAMPAIGNCTL_API_KEY: KEY, CAMPAIGNCTL_BASE_URL: sandbox.baseUrl, ...env },
  });
}

/** Plans the case with `--json`, then again with `--detailed-exitcode`; checks the document's schema. */
export async function planCase(input: CaseInput): Promise<CaseResult> {
  return withCase(input, async (sandbox, dir) => {
    const args = input.args ?? [];
    const first = await planIn(sandbox, dir, ["--json", ...args]);
    const second = await planIn(sandbox, dir, ["--json", "--detailed-exitcode", ...args]);
    // The second plan reads from the cache the first wrote: the same projects, fewer requests.
    expect(JSON.parse(second.stdout).projects).toEqual(JSON.parse(first.stdout).projects);
    const checked = validatePlanDocument(JSON.parse(first.stdout));
    if (!checked.ok) throw new Error(JSON.stringify(checked.diagnostics, null, 2));
    expect(`${first.stdout}${first.stderr}${second.stderr}`).not.toContain(KEY);
    const plan = checked.plan;
    return {
      plan,
      code: first.code,
      detailed: second.code,
      stdout: first.stdout,
      stderr: first.stderr,
      project: (address) => {
        const p = plan.projects.find((x) => x.address === address);
        if (p === undefined) throw new Error(`no project ${address} in the plan`);
        return p;
      },
    };
  });
}

/** `kind:status` of each action of a project, in order. */
export function actionsOf(p: ProjectPlan): string[] {
  return p.actions.map((a) => `${a.kind}:${a.status}`);
}

/** Every diagnostic code of a project. */
export function codesOf(p: ProjectPlan): string[] {
  return p.diagnostics.map((d) => d.code);
}

export function readText(dir: string, file: string): string {
  return readFileSync(join(dir, file), "utf8");
}
