/**
 * Report paths (`--out`, `--markdown`, `--junit`) are checked before the first request: a path that
 * cannot be written fails at once with `cli.file-unwritable`, and the API sees zero requests.
 */

import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Io } from "../../cli/output/io.js";
import { checkReportPaths } from "../../cli/output/report-paths.js";
import { TEST_NOW } from "../helpers/clock.js";
import { captureIo, runCli } from "../helpers/run-cli.js";
import { fileProject, KEY, liveProject, TEST_BLOCK } from "../plan-command/fixture-builder.js";
import { withCase } from "../plan-command/harness.js";
import { requestTotal } from "../sandbox/helpers.js";

const ioIn = (cwd: string): Io => captureIo({ cwd, env: {} });

/** A temp dir with a regular file `file.txt` and a directory `reports/`. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-paths-"));
  writeFileSync(join(dir, "file.txt"), "not a directory\n");
  mkdirSync(join(dir, "reports"));
  return dir;
}

describe("checkReportPaths", () => {
  const cases: { name: string; paths: [string, string][]; messages: string[] }[] = [
    { name: "flags not given", paths: [], messages: [] },
    { name: "a file in an existing directory", paths: [["--junit", "reports/apply.xml"]], messages: [] },
    {
      name: "missing directories (created when written)",
      paths: [["--out", "new/deeper/plan.json"]],
      messages: [],
    },
    { name: "an existing file (overwritten)", paths: [["--markdown", "file.txt"]], messages: [] },
    {
      name: "a directory",
      paths: [["--junit", "reports"]],
      messages: ["--junit reports: cannot write there: it is a directory"],
    },
    {
      name: "under a regular file",
      paths: [["--out", "file.txt/deeper/plan.json"]],
      messages: [
        /--out file.txt\/deeper\/plan.json: cannot write there: .*file.txt is a file, not a directory/.source,
      ],
    },
    {
      name: "a YAML file, existing or not (a campaign or policy file)",
      paths: [
        ["--out", "campaign.yaml"],
        ["--markdown", "reports/new.yml"],
      ],
      messages: [
        /--out campaign.yaml: cannot write there: it is a YAML file \(a campaign or policy file\), not a report/
          .source,
        /--markdown reports\/new.yml: cannot write there: it is a YAML file/.source,
      ],
    },
    {
      name: "two flags, one file",
      paths: [
        ["--out", "reports/x"],
        ["--markdown", "./reports/x"],
      ],
      messages: ["--markdown ./reports/x: cannot write there: --out writes the same file"],
    },
  ];
  test.each(cases)("$name", async ({ paths, messages }) => {
    const dir = workspace();
    const problems = await checkReportPaths(
      ioIn(dir),
      paths.map(([flag, file]) => ({ flag: flag as "--out" | "--markdown" | "--junit", file })),
    );
    expect(problems.map((p) => p.code)).toEqual(messages.map(() => "cli.file-unwritable"));
    for (const [i, p] of problems.entries()) expect(p.message).toMatch(new RegExp(messages[i] ?? ""));
    // Checking has no side effects: nothing was created.
    expect(existsSync(join(dir, "new"))).toBe(false);
  });

  test("an undefined file (flag not given) is skipped", async () => {
    expect(await checkReportPaths(ioIn(workspace()), [{ flag: "--junit", file: undefined }])).toEqual([]);
  });
});

const requestCount = (rootUrl: string): Promise<number> => requestTotal({ rootUrl });

const NOW = TEST_NOW;
const ONE = {
  live: [liveProject(1, NOW)],
  files: { first: fileProject(1, { state: "tested", test: TEST_BLOCK }) },
};

describe("plan and apply check their report paths before the first request", () => {
  test.each([
    ["apply", "--auto-approve", "--junit", "file.txt/apply.xml"],
    ["apply", "--auto-approve", "--markdown", "."],
    ["plan", "--out", "file.txt/plan.json"],
    ["plan", "--markdown", "."],
  ])("%s %s %s %s: a clear error and zero requests", async (...argv) => {
    await withCase(ONE, async (sandbox, dir) => {
      writeFileSync(join(dir, "file.txt"), "not a directory\n");
      const env = { CAMPAIGNCTL_API_KEY: KEY, CAMPAIGNCTL_BASE_URL: sandbox.baseUrl };
      const r = await runCli(argv, { cwd: dir, env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^error\[cli\.file-unwritable\]: --(junit|markdown|out) \S+: cannot write there: /,
      );
      expect(await requestCount(sandbox.rootUrl)).toBe(0);
      // The control: the same run with a writable path does reach the API.
      const fixed = argv.map((w) => (w === "." ? "report.md" : w.replace("file.txt/", "")));
      await runCli(fixed, { cwd: dir, env });
      expect(await requestCount(sandbox.rootUrl)).toBeGreaterThan(0);
    });
  });
});

describe("a report path that is a YAML file (a campaign or policy file) is refused", () => {
  test.each([
    ["plan", "--markdown", "campaign.yaml"],
    ["apply", "--auto-approve", "--junit", "campaign.yaml"],
    ["status", "--markdown", "./Campaign.YML"],
  ])("%j: nothing overwritten, zero requests", async (...argv) => {
    await withCase(ONE, async (sandbox, dir) => {
      // `--markdown` taken for a switch like `--json`: the campaign file became the report's path,
      // the directory was read, and the campaign file was overwritten with the report.
      const before = readFileSync(join(dir, "campaign.yaml"), "utf8");
      const env = { CAMPAIGNCTL_API_KEY: KEY, CAMPAIGNCTL_BASE_URL: sandbox.baseUrl };
      const r = await runCli(argv, { cwd: dir, env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^error\[cli\.file-unwritable\]: --(junit|markdown|out) \S+: cannot write there: it is a YAML file \(a campaign or policy file\), not a report\n/,
      );
      expect(readFileSync(join(dir, "campaign.yaml"), "utf8")).toBe(before);
      expect(await requestCount(sandbox.rootUrl)).toBe(0);
    });
  });
});
