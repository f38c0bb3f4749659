/**
 * `replies run` flags that cannot take effect are usage errors (exit 1, `cli.usage`), before any
 * request or state: the listener's `--port`, `--host` and `--secret-env` with `--once` (which never
 * listens) or `--no-webhooks`. Run through the real command line (in-process), so commander's
 * defaults are told apart from flags as typed.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { campaignDir } from "./world.js";

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
