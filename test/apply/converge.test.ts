/**
 * `apply --sandbox --auto-approve examples/` converges in one run (issue 9): the embedded sandbox
 * approves test sends at once, so each schedule follows its test, and `after:` chains go on, in the
 * same run; a following `plan --sandbox --detailed-exitcode examples/` has nothing to do (exit 0).
 * Runs in a temp directory holding a copy of examples/ (the sandbox's state lives under it).
 */

import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { applyCommand } from "../../cli/commands/apply.js";
import { planCommand } from "../../cli/commands/plan.js";
import type { Io } from "../../cli/output/io.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import type { ApplyResult } from "../../src/apply/types.js";
import { clockFrom, TEST_NOW } from "../helpers/clock.js";

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function capture(cwd: string): { io: Io; out: () => string; err: () => string } {
  let stdout = "";
  let stderr = "";
  return {
    io: {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      env: { NO_COLOR: "1" },
      cwd,
      clock: clockFrom(TEST_NOW),
    },
    out: () => stdout,
    err: () => stderr,
  };
}

test("apply --sandbox --auto-approve examples/ converges in one run", async () => {
  dir = mkdtempSync(join(tmpdir(), "campaignctl-converge-"));
  cpSync(join(process.cwd(), "examples"), join(dir, "examples"), { recursive: true });
  // Texting actions only: the example's email list is planned again on every run (the API has no
  // read of email lists), which test/quick-start.test.ts and test/email/ cover.
  rmSync(join(dir, "examples/email.yaml"));

  const applied = capture(dir);
  const code = exitCodeOf(
    await applyCommand(
      ["examples"],
      { sandbox: true, autoApprove: true, json: true, parallelism: 4, target: [], exclude: [], color: false },
      applied.io,
    ),
  );
  const result = JSON.parse(applied.out()) as ApplyResult;
  expect(code, applied.err()).toBe(0);
  // The follow-up's test is ordered after the reminder and went out in this run.
  const followupTest = result.actions.find((a) => a.id === "gotv-followup.test");
  expect(followupTest?.status).toBe("done");
  expect(result.summary.deferred).toBe(0);
  expect(result.basis_reads).toBeGreaterThan(0);

  const planned = capture(dir);
  const planCode = exitCodeOf(
    await planCommand(
      ["examples"],
      { sandbox: true, detailedExitcode: true, target: [], exclude: [], color: false },
      planned.io,
    ),
  );
  expect(planCode, planned.out() + planned.err()).toBe(0);
}, 60_000);
