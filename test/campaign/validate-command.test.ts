import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-validate-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const clean = "version: 1\nprojects:\n  a:\n    id: x\n";
const broken = "version: 1\nprojects:\n  a:\n    id: x\n    shedule: {at: now, timezone: America/Chicago}\n";

describe("campaignctl validate", () => {
  it("exits 0 and prints the summary for clean files", async () => {
    const result = await runCli(["validate"], { cwd: dirWith({ "a.yaml": clean }) });
    expect(result).toEqual({
      code: 0,
      stdout: "policy: none\n1 file, 1 project: 0 errors, 0 warnings\n",
      stderr: "",
    });
  });

  it("prints errors compiler-style with a caret and exits 1", async () => {
    const result = await runCli(["validate", "c.yaml"], { cwd: dirWith({ "c.yaml": broken }) });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        "c.yaml:5:5: error[campaign.unknown-key]: unknown key `shedule` in project `a`",
        "  5 |     shedule: {at: now, timezone: America/Chicago}",
        "    |     ^^^^^^^",
        "  hint: did you mean `schedule`?",
        "policy: none",
        "1 file, 1 project: 1 error, 0 warnings",
        "",
      ].join("\n"),
    );
  });

  it("fails on warnings only with --strict", async () => {
    const cwd = dirWith({ "a.yaml": clean, "empty.yaml": "# nothing yet\n" });
    const lenient = await runCli(["validate"], { cwd });
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toContain("warning[campaign.empty-file]");
    expect(lenient.stdout).toContain("2 files, 1 project: 0 errors, 1 warning\n");
    const strict = await runCli(["validate", "--strict"], { cwd });
    expect(strict.code).toBe(1);
  });

  it("writes a stable JSON document with --format json (and --json)", async () => {
    const cwd = dirWith({ "c.yaml": broken });
    const result = await runCli(["validate", "--format", "json"], { cwd });
    expect(result.code).toBe(1);
    const doc = JSON.parse(result.stdout);
    expect(Object.keys(doc)).toEqual([
      "format_version",
      "files",
      "projects",
      "policy_files",
      "diagnostics",
      "summary",
    ]);
    expect(doc.format_version).toBe(1);
    expect(doc.files).toEqual([{ path: "c.yaml", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(doc.projects).toBe(1);
    expect(doc.summary).toEqual({ errors: 1, warnings: 0 });
    expect(doc.diagnostics).toEqual([
      {
        severity: "error",
        code: "campaign.unknown-key",
        message: "unknown key `shedule` in project `a`",
        range: {
          file: "c.yaml",
          start: { line: 5, column: 5, offset: 40 },
          end: { line: 5, column: 12, offset: 47 },
        },
        hint: "did you mean `schedule`?",
        related: [],
      },
    ]);
    const short = await runCli(["validate", "--json"], { cwd });
    expect(short.stdout).toBe(result.stdout);
  });

  it("reports missing paths and empty directories as errors", async () => {
    const cwd = dirWith({});
    const missing = await runCli(["validate", "nope"], { cwd });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe(
      "error[cli.path-not-found]: path nope does not exist\n  hint: pass campaign files or directories that contain them\npolicy: none\n0 files, 0 projects: 1 error, 0 warnings\n",
    );
    const empty = await runCli(["validate"], { cwd });
    expect(empty.code).toBe(1);
    expect(empty.stdout).toContain("error[cli.no-input]");
  });

  it("rejects an unknown format as a usage error", async () => {
    const result = await runCli(["validate", "--format", "xml"], { cwd: dirWith({ "a.yaml": clean }) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/xml/);
    expect(result.stdout).toBe("");
  });

  it("colours output only when asked", async () => {
    const cwd = dirWith({ "c.yaml": broken });
    const coloured = await runCli(["validate"], { cwd, env: { NO_COLOR: undefined, FORCE_COLOR: "1" } });
    expect(coloured.stdout).toContain("\u001b[");
    const plain = await runCli(["validate"], { cwd, tty: true });
    expect(plain.stdout).not.toContain("\u001b[");
  });

  it("a file without `projects` declares none: its top-level keys are not counted as projects", async () => {
    const cwd = dirWith({ "a.yaml": "version: 1\nfoo: 1\n", "b.yaml": "version: 1\nfoo: 2\n" });
    const result = await runCli(["validate", "a.yaml", "b.yaml"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("2 files, 0 projects: 2 errors, 0 warnings");
    expect(result.stdout).not.toContain("campaign.duplicate-address");
  });
});
