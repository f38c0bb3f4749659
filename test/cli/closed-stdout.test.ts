/**
 * A reader that goes away early (`campaignctl help plan | head -1`) ends the output quietly: no
 * EPIPE stack trace, and the run keeps its outcome and exit code. Runs the built CLI as a child
 * process whose stdout the test closes after the first line (the apply against a sandbox in this
 * process, over loopback); the full runs it is compared with, and the plan that shows the apply ran
 * to its end, run in-process (`run` of cli/main.ts).
 */
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { BUILT_CLI, runCli } from "../helpers/run-cli.js";
import { EXAMPLE_FIXTURE, PARENT_KEY } from "../sandbox/helpers.js";

interface EarlyClose {
  readonly firstLine: string;
  readonly stderr: string;
  readonly code: number | null;
}

/** Runs the built CLI, reads stdout up to its first newline, then destroys the pipe. */
function readFirstLineThenClose(
  argv: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
): Promise<EarlyClose> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILT_CLI, ...argv], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let firstLine: string | undefined;
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (firstLine !== undefined) return;
      out += chunk;
      const end = out.indexOf("\n");
      if (end < 0) return;
      firstLine = out.slice(0, end);
      child.stdout.destroy();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ firstLine: firstLine ?? out, stderr, code }));
  });
}

/** What an unhandled EPIPE leaves on stderr. */
const CRASH = /EPIPE|Unhandled 'error' event|\n\s+at /;

function bigCampaign(projects: number): string {
  const lines = ["version: 1", "projects:"];
  for (let i = 0; i < projects; i++)
    lines.push(
      `  p${i}:`,
      `    id: id-${i}`,
      `    mesage: "Hi {{first_name|friend}}, polls are open. Reply STOP to opt out"`,
    );
  return `${lines.join("\n")}\n`;
}

describe("a closed stdout ends the output quietly", () => {
  test("help plan | head -1", async () => {
    const r = await readFirstLineThenClose(["help", "plan"], process.cwd());
    expect(r.firstLine).toBe("Usage: campaignctl plan [options] [paths...]");
    expect(r.stderr).not.toMatch(CRASH);
    expect(r.code).toBe(0);
  });

  test("validate --json of a big file | head -1: the exit code of the full run", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-epipe-"));
    // 600 unknown keys: a document of over 256 KiB, four times a pipe's buffer (64 KiB), so writes
    // after the reader went away hit EPIPE.
    writeFileSync(join(cwd, "big.yaml"), bigCampaign(600));
    const full = await runCli(["validate", "--json", "big.yaml"], { cwd });
    expect(full.code).toBe(1);
    expect(full.stdout.length).toBeGreaterThan(256 * 1024);
    const r = await readFirstLineThenClose(["validate", "--json", "big.yaml"], cwd);
    expect(r.firstLine).toBe("{");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(full.code);
  });

  test("apply ... | head -1 still applies, with its exit code", async () => {
    // The API is a sandbox in this process (the closed pipe is the point here, not the embedded
    // sandbox, whose start would be a third of the child's CPU).
    const sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, autoApproveTests: true });
    try {
      const cwd = mkdtempSync(join(tmpdir(), "campaignctl-epipe-apply-"));
      cpSync("examples", join(cwd, "examples"), { recursive: true });
      const api = ["--base-url", sb.baseUrl];
      const env = { CAMPAIGNCTL_API_KEY: PARENT_KEY };
      const r = await readFirstLineThenClose(["apply", ...api, "--auto-approve", "examples/"], cwd, env);
      expect(r.stderr).not.toMatch(CRASH);
      expect(r.code).toBe(0);
      // The apply ran to its end: the next plan sees its test sends done (nothing planned for them).
      const next = await runCli(["plan", ...api, "--json", "examples/"], { cwd, env });
      const actions = (
        JSON.parse(next.stdout) as { projects: { actions: { id: string; status: string }[] }[] }
      ).projects
        .flatMap((p) => p.actions)
        .filter((a) => a.id === "gotv-reminder.test");
      expect(actions.map((a) => a.status)).not.toContain("planned");
    } finally {
      await sb.close();
    }
  });
});
