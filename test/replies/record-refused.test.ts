/**
 * The built CLI's `replies run` whose record (answered.jsonl) the machine stops taking mid-run (a
 * file size limit, `ulimit -f`: writes past it fail with EFBIG, as a full disk fails with ENOSPC):
 * the run stops with the error `cli.io-failed` naming the file, exit 1, not an internal error; a
 * run after it (the limit gone) answers the rest, and the answer sent but not recorded is found in
 * its thread, not sent again. The sandbox runs in this process on a frozen virtual clock.
 */
import { execFile } from "node:child_process";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { BUILT_CLI, runCli } from "../helpers/run-cli.js";
import { EXAMPLE_FIXTURE, PARENT_KEY } from "../sandbox/helpers.js";
import { ANSWERS, answersAfter, campaignDir, TEXTS, textIn } from "./world.js";

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: false, seed: 5 });
});
afterAll(async () => {
  await sb.close();
});

const FLAGS = ["replies", "run", "--once", "--no-webhooks", "--json"];

/** The passes the last `stopped` line of a `--json` run counts (0 without one). */
function passesOf(stdout: string): number {
  const stopped = stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { type: string; totals?: { passes: number } })
    .filter((l) => l.type === "stopped")
    .at(-1);
  return stopped?.totals?.passes ?? 0;
}

/** The built CLI under a file size limit of 1 KiB (a few lines of the record). */
function limited(cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "bash",
      [
        "-c",
        'ulimit -f 1 && exec "$0" "$@"',
        process.execPath,
        BUILT_CLI,
        ...FLAGS,
        "--base-url",
        sb.baseUrl,
      ],
      { cwd, env: { ...process.env, CAMPAIGNCTL_API_KEY: PARENT_KEY, NO_COLOR: "1" } },
      (error, stdout, stderr) =>
        resolve({ code: typeof error?.code === "number" ? error.code : error ? -1 : 0, stdout, stderr }),
    );
  });
}

test("a record the machine stops taking: cli.io-failed naming it, exit 1; the next run answers the rest, none twice", async () => {
  const cwd = campaignDir();
  const sent: { messageId: string; conversationId: string; rule: string | null }[] = [];
  for (const [n, t] of TEXTS.entries()) {
    sent.push({ ...(await textIn(sb, t.project, n, t.text)), rule: t.rule });
    await sb.clock.advance(1_000);
  }
  const refused = await limited(cwd);
  expect(refused.stderr).not.toContain("internal error");
  expect(refused.stderr).toMatch(
    /error\[cli\.io-failed\]: could not write \S*answered\.jsonl: file too large \(EFBIG\)/,
  );
  expect(refused.code).toBe(1);
  const answeredBefore = sent.filter((s) => answersAfter(sb, s.conversationId, s.messageId).length > 0);
  expect(answeredBefore.length).toBeGreaterThan(0);
  expect(answeredBefore.length).toBeLessThan(sent.filter((s) => s.rule !== null).length);
  // Runs again until one makes a pass: a run that starts within a minute of the last pass (as the
  // record says it, on the refused run's clock) looks at nothing (`replies.pass-not-due`).
  for (let i = 0; i < 5; i++) {
    await sb.clock.advance(61_000);
    const after = await runCli([...FLAGS, "--base-url", sb.baseUrl], {
      cwd,
      env: { CAMPAIGNCTL_API_KEY: PARENT_KEY },
      clock: () => sb.clock.nowMs(),
    });
    expect(after.code, after.stderr).toBe(0);
    if (passesOf(after.stdout) > 0) break;
  }
  for (const s of sent) {
    const answers = answersAfter(sb, s.conversationId, s.messageId);
    if (s.rule === null) expect(answers).toEqual([]);
    else expect(answers).toEqual([ANSWERS[s.rule as keyof typeof ANSWERS]]);
  }
}, 60_000);
