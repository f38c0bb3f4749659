/**
 * `--base-url` names another API than the embedded sandbox: with `--sandbox` (or `--fixture`) it is a
 * usage error where the flags are parsed (exit 1, the error document with --json), in every command
 * that connects, and nothing starts (no sandbox world is made).
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { documentOf } from "../helpers/schemas.js";

const BASE = ["--base-url", "http://127.0.0.1:9/v1"];

describe("--sandbox with --base-url", () => {
  test.each([
    [["plan", "--sandbox", ...BASE, "examples/"], "--sandbox"],
    [["apply", "--sandbox", ...BASE, "--auto-approve", "examples/"], "--sandbox"],
    [["import", "--sandbox", ...BASE, "--all", "--out", "campaigns/"], "--sandbox"],
    [["preview", "--html", "gallery/", "--sandbox", ...BASE, "examples/"], "--sandbox"],
    [["plan", ...BASE, "--sandbox", "examples/"], "--sandbox"],
    [["plan", "--fixture", "examples/sandbox.yaml", ...BASE, "examples/"], "--fixture <file>"],
  ])("%j is a usage error", async (argv, other) => {
    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-flags-"));
    const message = `option '--base-url <url>' cannot be used with option '${other}'`;
    const run = await runCli(argv, { cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `error[cli.usage]: ${message}\n  hint: campaignctl ${argv[0]} --help shows the usage\n`,
    );
    const json = await runCli([...argv, "--json"], { cwd });
    expect(json.code).toBe(1);
    expect(documentOf("error-result", json.stdout).diagnostics).toMatchObject([
      { code: "cli.usage", message },
    ]);
    expect(existsSync(join(cwd, ".campaignctl"))).toBe(false);
  });
});
