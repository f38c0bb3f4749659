import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { exitCodeOf } from "../cli/output/outcome.js";
import { VERSION } from "../cli/version.js";
import { runBuiltCli, runCli } from "./helpers/run-cli.js";

describe("cli boundary", () => {
  it("reports the package version", async () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(VERSION).toBe(pkg.version);
    const result = await runCli(["--version"]);
    expect(result).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
  });

  it("exits 1 with a usage message for an unknown command, without a stack trace", async () => {
    const result = await runCli(["frobnicate"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/unknown command|too many arguments/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("runs as the built binary", async () => {
    const result = await runBuiltCli(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: campaignctl");
  });

  it.each([
    [{ kind: "success" } as const, 0],
    [{ kind: "failure" } as const, 1],
    [{ kind: "usage" } as const, 1],
    [{ kind: "plan-detailed", pending: false, blocked: false } as const, 0],
    [{ kind: "plan-detailed", pending: true, blocked: false } as const, 2],
    [{ kind: "plan-detailed", pending: true, blocked: true } as const, 3],
    [{ kind: "plan-detailed", pending: false, blocked: true } as const, 3],
    [{ kind: "interrupted" } as const, 130],
  ])("maps %o to exit code %i", (outcome, code) => {
    expect(exitCodeOf(outcome)).toBe(code);
  });
});
