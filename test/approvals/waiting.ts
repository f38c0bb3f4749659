/**
 * `apply plan.json --json --wait-for-approval 1h` in-process, on the sandbox's virtual clock, with
 * a hook before each of the loop's waits (an approval poll): where a test makes people act while
 * apply waits (withdraw an approval, approve the test messages). The result document is checked
 * against its schema.
 */
import { join } from "node:path";
import { expect } from "vitest";
import { applyCommand } from "../../cli/commands/apply.js";
import type { Io } from "../../cli/output/io.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import type { ApplyResult } from "../../src/apply/types.js";
import { runCli } from "../helpers/run-cli.js";
import { schemaErrors } from "../helpers/schemas.js";
import { admin } from "../sandbox/helpers.js";
import type { ApprovalsWorld } from "./world.js";

/** One hour, as `--wait-for-approval 1h` gives it. */
const HOUR = 3_600_000;

export interface WaitedApply {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly result: ApplyResult;
  /** How many times the loop waited (approval polls, backoffs). */
  readonly waits: number;
}

export async function applyWaiting(
  w: ApprovalsWorld,
  env: Record<string, string>,
  beforeWait: (n: number) => Promise<void>,
  more: { readonly pullRequest?: number } = {},
): Promise<WaitedApply> {
  let stdout = "";
  let stderr = "";
  const clock = { now: () => w.sb.clock.nowMs() };
  const io: Io = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    env: { NO_COLOR: "1", ...env },
    cwd: w.dir,
    clock: clock.now,
    stdoutFlushed: () => Promise.resolve(),
  };
  let waits = 0;
  const outcome = await applyCommand(
    ["plan.json"],
    { parallelism: 4, target: [], exclude: [], color: false, json: true, waitForApproval: HOUR, ...more },
    io,
    {
      session: { clock, sleep: (ms) => w.sb.clock.advance(ms) },
      clock,
      sleep: async (ms) => {
        await beforeWait(++waits);
        await w.sb.clock.advance(ms);
      },
      onInterrupt: () => () => {},
      ask: async () => "",
    },
  );
  const result = JSON.parse(stdout) as ApplyResult;
  expect(schemaErrors("apply-result", result)).toEqual([]);
  return { code: exitCodeOf(outcome), stdout, stderr, result, waits };
}

/** A person approves every test message the sandbox holds (each project awaiting its test's approval). */
export async function approveTests(w: ApprovalsWorld): Promise<void> {
  for (const p of Object.values(w.sb.store.world.projects))
    if (p.status === "awaiting_test") await admin(w.sb, "POST", `/projects/${p.project_id}/approve`);
}

/**
 * Signs the world's `plan.json` as dana (its author), then erin and frank (two approvals), with
 * `campaignctl approve` as each would: every signature counts.
 */
export async function signByDanaErinFrank(w: ApprovalsWorld): Promise<void> {
  for (const [name, author] of [
    ["dana", true],
    ["erin", false],
    ["frank", false],
  ] as const) {
    const key = join(w.dir, "keys", name);
    const run = await runCli(["approve", "plan.json", "--key", key, ...(author ? ["--author"] : [])], {
      cwd: w.dir,
      env: w.env,
    });
    expect(run.code, run.stderr).toBe(0);
  }
}
