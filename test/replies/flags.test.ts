/**
 * `replies run` flags that cannot take effect are usage errors (exit 1, `cli.usage`), before any
 * request or state: the listener's `--port`, `--host` and `--secret-env` with `--once` (which never
 * listens) or `--no-webhooks`. Run through the real command line (in-process), so commander's
 * defaults are told apart from flags as typed.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { runCli } from "../helpers/run-cli.js";
import { EXAMPLE_FIXTURE } from "../sandbox/helpers.js";
import { campaignDir, planJson, runJson } from "./world.js";

const env = { CAMPAIGNCTL_API_KEY: "ck_test_unused" };
const BASE = ["replies", "run", "--base-url", "http://127.0.0.1:9"];

describe("replies run: listener flags without a listener", () => {
  const cases: [string[], string][] = [
    [["--once", "--port", "9000"], "--port configures the event listener, and --once runs none"],
    [["--once", "--host", "0.0.0.0"], "--host configures the event listener, and --once runs none"],
    [["--once", "--secret-env", "S"], "--secret-env configures the event listener, and --once runs none"],
    [["--no-webhooks", "--port", "0"], "--port configures the event listener, and --no-webhooks runs none"],
    [["--once", "--port", "8788"], "--port configures the event listener, and --once runs none"],
  ];
  for (const [flags, message] of cases)
    it(`${flags.join(" ")} is a usage error`, async () => {
      const cwd = campaignDir();
      const r = await runCli([...BASE, ...flags, "--json"], { cwd, env });
      expect(r.code).toBe(1);
      const doc = JSON.parse(r.stdout);
      expect(doc.diagnostics.map((d: { code: string; message: string }) => [d.code, d.message])).toEqual([
        ["cli.usage", message],
      ]);
    });

  it("--once alone does not trip on the listener's defaults", async () => {
    const cwd = campaignDir();
    // No API at port 9: the run gets past the flags and fails on the connection, not on usage.
    const r = await runCli([...BASE, "--once", "--json"], { cwd, env });
    expect(r.code).toBe(1);
    const codes = JSON.parse(r.stdout).diagnostics.map((d: { code: string }) => d.code);
    expect(codes).not.toContain("cli.usage");
  });
});

describe("flags that depend on the state directory say when they cannot take effect", () => {
  it("replies run --since with a cursor on disk is a warning (replies.since-unused)", async () => {
    const sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: false, seed: 3 });
    try {
      const cwd = campaignDir();
      const first = await runJson(sb, cwd, { once: true, webhooks: false, since: 3_600_000 });
      expect(first.code, first.stderr).toBe(0);
      expect(first.lines.filter((l) => l.type === "problem")).toEqual([]);
      await sb.clock.advance(61_000);
      const second = await runJson(sb, cwd, { once: true, webhooks: false, since: 3_600_000 });
      expect(second.code, second.stderr).toBe(0);
      const problems = second.lines.filter((l) => l.type === "problem").map((l) => l.diagnostic.code);
      expect(problems).toEqual(["replies.since-unused"]);
    } finally {
      await sb.close();
    }
  });

  it("replies plan --state DIR without a record warns and writes nothing there", async () => {
    const sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: false, seed: 3 });
    try {
      const cwd = campaignDir();
      const { code, stderr } = await planJson(sb, cwd, { state: "." });
      expect(code).toBe(0);
      expect(stderr).toContain("replies.record-missing");
      expect(existsSync(join(cwd, "answered.jsonl"))).toBe(false);
    } finally {
      await sb.close();
    }
  });
});
