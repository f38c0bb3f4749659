/**
 * `apply`, `plan` and `validate` given a file that is neither a saved plan nor a campaign file (the
 * Markdown report of `plan --markdown`, a JUnit XML, a text file): one clear error with a hint, exit 1,
 * and for `apply` before any connection is opened; a campaign file of any name is still read as one.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { classifyApplyPaths } from "../../cli/adapters/plan-file.js";
import { runCli } from "../helpers/run-cli.js";

const GOTV = readFileSync("examples/gotv.yaml", "utf8");
const MARKDOWN =
  "## campaignctl plan\n\n**Plan: 3 to do (2 test, 1 pause), 3 deferred, 0 blocked, 0 drifted; 0 errors.**\n\nPolicy: `campaignctl.policy.yaml` (send_window 09:00-20:00).\n\n| Project | Live |\n|---|---|\n| `gotv-reminder` | draft |\n";
const JUNIT = '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="campaignctl">\n</testsuites>\n';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A temp directory holding `files`. */
function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-not-campaign-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const FILES = {
  "plan.md": MARKDOWN,
  "junit.xml": JUNIT,
  "plan.txt": "3 to do, 0 blocked\n",
  "results.json": '{"passed": 3}\n',
  "damaged.json": '{"format_version": 2, "proj',
  "saved-plan": '{"format_version": 2}\n',
  "gotv.txt": GOTV,
  "gotv.yaml": GOTV,
};

describe("what apply makes of its paths", () => {
  /** [paths, kind, code of the diagnostic] */
  const CASES: readonly [readonly string[], string, string?][] = [
    [["plan.md"], "neither", "apply.not-plan-or-campaign"],
    [["junit.xml"], "neither", "apply.not-plan-or-campaign"],
    [["plan.txt"], "neither", "apply.not-plan-or-campaign"],
    [["results.json"], "neither", "apply.not-plan-or-campaign"],
    [[".", "plan.md"], "neither", "apply.not-plan-or-campaign"],
    [["damaged.json"], "plan"],
    [["saved-plan"], "plan"],
    [["gotv.txt"], "files"],
    [["gotv.yaml", "gotv.txt"], "files"],
    [["."], "files"],
    [["missing.md"], "files"],
    [["saved-plan", "gotv.yaml"], "mixed", "apply.plan-mixed-with-files"],
  ];

  it.each(CASES)("%j is %s", (paths, kind, code) => {
    const input = classifyApplyPaths(paths, dirWith(FILES));
    expect(input.kind).toBe(kind);
    if (input.kind === "mixed" || input.kind === "neither") expect(input.diagnostic.code).toBe(code);
  });
});

describe("one clear error for a file that is neither", () => {
  it.each([
    ["plan.md", "it looks like Markdown (a report, such as the one `plan --markdown` writes?)"],
    ["junit.xml", "it looks like XML (a JUnit report, such as the one `--junit` writes?)"],
    ["plan.txt", "it looks like plain text, not YAML with `version: 1`"],
  ])("apply %s: says what it is and what apply takes, before opening a connection", async (file, said) => {
    const dir = dirWith(FILES);
    const r = await runCli(["apply", "--sandbox", file], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `${file}:1:1: error[apply.not-plan-or-campaign]: neither a saved plan nor a campaign file: ${said}\n` +
        "  hint: `apply FILE` takes a saved plan written by `campaignctl plan --out FILE`, or campaign files and directories (YAML that starts with `version: 1`)\n",
    );
    // No embedded sandbox was started (it keeps its world under .campaignctl/).
    expect(existsSync(join(dir, ".campaignctl"))).toBe(false);
  });

  it("apply --json prints the error document", async () => {
    const r = await runCli(["apply", "--sandbox", "--json", "plan.md"], { cwd: dirWith(FILES) });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { error: boolean; diagnostics: { code: string; range: unknown }[] };
    expect(doc.error).toBe(true);
    expect(doc.diagnostics.map((d) => d.code)).toEqual(["apply.not-plan-or-campaign"]);
  });

  it.each([
    ["validate", ["validate", "plan.md"]],
    ["plan", ["plan", "--sandbox", "plan.md"]],
  ])("%s plan.md: one error instead of YAML errors", async (_name, argv) => {
    const r = await runCli(argv, { cwd: dirWith(FILES) });
    expect(r.code).toBe(1);
    const errors = `${r.stdout}${r.stderr}`.split("\n").filter((l) => l.includes("error["));
    expect(errors).toEqual([
      "plan.md:1:1: error[campaign.not-campaign-file]: not a campaign file: it looks like Markdown (a report, such as the one `plan --markdown` writes?)",
    ]);
  });

  it("validate of a saved plan says to apply it", async () => {
    const r = await runCli(["validate", "saved-plan"], { cwd: dirWith(FILES) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "saved-plan:1:1: error[campaign.not-campaign-file]: this is a saved plan (JSON with `format_version`), not a campaign file",
    );
    expect(r.stdout).toContain("hint: apply a saved plan with `campaignctl apply saved-plan`");
  });

  it("a campaign file named gotv.txt is validated as one", async () => {
    const r = await runCli(["validate", "gotv.txt"], { cwd: dirWith(FILES) });
    expect(r.stdout).toContain("1 file, 2 projects: 0 errors, 0 warnings");
    expect(r.code).toBe(0);
  });

  it.each([
    ["campaignctl.policy.yml", "this is a policy file, not a campaign file"],
    [
      "Campaignctl.policy.yaml",
      "this is named like a policy file (campaignctl.policy.yaml), not a campaign file",
    ],
  ])(
    "validate of a policy file named on the command line (%s) says what it is, and reads no policy from it",
    async (name, message) => {
      const cwd = dirWith({ [name]: "version: 1\nrules:\n  forbid_at_now: true\n" });
      const r = await runCli(["validate", name], { cwd });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`${name}:1:1: error[campaign.not-campaign-file]: ${message}`);
      expect(r.stdout).not.toContain("campaign.unknown-key");
      expect(r.stdout).toContain("0 files, 0 projects");
    },
  );
});
