/**
 * `preview`'s shared flags: `--now` pins the offline lint's clock (as `validate --now` does), the
 * connection flags are plan's (`--fixture` included) and only go with `--html`, and `--html DIR` is
 * checked before the first request.
 */

import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, test } from "vitest";
import { fixtureStatePath, SANDBOX_STATE_PATH } from "../../cli/gather/session.js";
import type { Io } from "../../cli/output/io.js";
import { checkReportDir } from "../../cli/output/report-paths.js";
import { TEST_NOW } from "../helpers/clock.js";
import { captureIo, runCli } from "../helpers/run-cli.js";
import { fileProject, KEY, liveProject, TEST_BLOCK } from "../plan-command/fixture-builder.js";
import { withCase } from "../plan-command/harness.js";
import { requestTotal } from "../sandbox/helpers.js";

const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));

function workspace(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-preview-flags-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** A project scheduled for 2030-06-01: past by a `--now` in 2031, future by one in 2030-01. */
const SCHEDULED_2030 = `version: 1
projects:
  summer-push:
    id: 9a000000-0000-4000-8000-0000000000b1
    message: "Hi {{first_name|friend}}, early voting is open. Reply STOP to opt out"
    contact_lists: [Ward 3 Likely Voters]
    state: scheduled
    schedule:
      at: "2030-06-01T10:00:00-07:00"
      timezone: America/Los_Angeles
`;

interface PreviewDocument {
  readonly projects: readonly { readonly address: string }[];
  readonly diagnostics: readonly { readonly code: string; readonly message: string }[];
}

async function previewJson(cwd: string, args: readonly string[]) {
  const result = await runCli(["preview", "summer.yaml", "--json", ...args], { cwd });
  return { code: result.code, document: JSON.parse(result.stdout) as PreviewDocument };
}

describe("preview --now", () => {
  it("judges past schedules against the given time, not the system clock", async () => {
    const cwd = workspace({ "summer.yaml": SCHEDULED_2030 });
    const after = await previewJson(cwd, ["--now", "2031-01-01T00:00:00Z"]);
    expect(after.code).toBe(0);
    expect(after.document.projects.map((p) => p.address)).toEqual(["summer-push"]);
    const past = after.document.diagnostics.filter((d) => d.code === "lint.schedule-in-past");
    expect(past).toHaveLength(1);
    expect(past[0]?.message).toContain("in the past by --now (2031-01-01T00:00:00.000Z)");

    const before = await previewJson(cwd, ["--now", "2030-01-01T00:00:00+00:00"]);
    expect(before.code).toBe(0);
    expect(before.document.diagnostics.map((d) => d.code)).not.toContain("lint.schedule-in-past");
  });

  it("pins the lint shown in the gallery too", async () => {
    const cwd = workspace({ "summer.yaml": SCHEDULED_2030 });
    const args = ["preview", "summer.yaml", "--html", "gallery", "--now", "2031-01-01T00:00:00Z"];
    const result = await runCli(args, { cwd });
    expect(result.code).toBe(0);
    expect(readFileSync(join(cwd, "gallery/index.html"), "utf8")).toContain("lint.schedule-in-past");
  });

  it.each(["2031-01-01", "tomorrow"])(
    "--now %s (no zone) is a usage error, as for validate",
    async (value) => {
      const cwd = workspace({ "summer.yaml": SCHEDULED_2030 });
      const result = await runCli(["preview", "summer.yaml", "--now", value], { cwd });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("expected an ISO 8601 date-time with a zone");
    },
  );
});

describe("preview's connection flags", () => {
  it("--html DIR --sandbox --fixture FILE plans against that fixture's own world", async () => {
    const cwd = workspace();
    cpSync(EXAMPLES, join(cwd, "examples"), { recursive: true });
    // The examples' world with early-vote-push already paused: no pause to plan for it.
    const world = readFileSync(join(EXAMPLES, "sandbox.yaml"), "utf8");
    const paused = world.replace(/^ {4}status: scheduled$/m, "    status: paused");
    expect(paused).not.toBe(world);
    writeFileSync(join(cwd, "world.yaml"), paused);

    const args = ["preview", "examples/", "--html", "gallery", "--sandbox", "--fixture", "world.yaml"];
    const result = await runCli(args, { cwd });
    expect(result.code, result.stderr).toBe(0);
    const html = readFileSync(join(cwd, "gallery/index.html"), "utf8");
    expect(html).not.toContain("not planned");
    expect(html.match(/data-testid="plan-status">Plan against <code>embedded-sandbox:/g)).toHaveLength(6);
    expect(html).not.toContain("pause: planned");
    expect(existsSync(join(cwd, fixtureStatePath(resolve(cwd, "world.yaml"))))).toBe(true);
    expect(existsSync(join(cwd, SANDBOX_STATE_PATH))).toBe(false);

    // The control: the example fixture's world still has the pause to plan.
    const control = await runCli(["preview", "examples/", "--html", "control", "--sandbox"], { cwd });
    expect(control.code, control.stderr).toBe(0);
    expect(readFileSync(join(cwd, "control/index.html"), "utf8")).toContain("pause: planned");
  });

  test.each([
    [["--sandbox"], "error[cli.usage]: --sandbox goes only with --html DIR"],
    [["--base-url", "http://127.0.0.1:9/v1"], "error[cli.usage]: --base-url goes only with --html DIR"],
    [
      ["--sandbox", "--fixture", "w.yaml"],
      "error[cli.usage]: --sandbox and --fixture go only with --html DIR",
    ],
    [["--html", "gallery", "--fixture", "w.yaml"], "error[cli.usage]: --fixture needs --sandbox"],
  ])("%j is a usage error, before anything is read or written", async (flags, message) => {
    const cwd = workspace({ "summer.yaml": SCHEDULED_2030 });
    const result = await runCli(["preview", "summer.yaml", ...flags], { cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.startsWith(message), result.stderr).toBe(true);
    expect(existsSync(join(cwd, "gallery"))).toBe(false);
    expect(existsSync(join(cwd, ".campaignctl"))).toBe(false);
  });
});

const ioIn = (cwd: string): Io => captureIo({ cwd, env: {} });

describe("checkReportDir", () => {
  const cases: { name: string; dir: string; why: RegExp | null }[] = [
    { name: "an existing directory", dir: "out", why: null },
    { name: "missing directories (created when written)", dir: "new/deeper", why: null },
    { name: "a regular file", dir: "file.txt", why: /file\.txt is a file, not a directory$/ },
    { name: "under a regular file", dir: "file.txt/sub", why: /file\.txt is a file, not a directory$/ },
    { name: "its file is a directory", dir: "taken", why: /taken\/index\.html is a directory$/ },
  ];
  test.each(cases)("$name", async ({ dir, why }) => {
    const cwd = workspace({ "file.txt": "not a directory\n" });
    mkdirSync(join(cwd, "out"));
    mkdirSync(join(cwd, "taken/index.html"), { recursive: true });
    const problems = await checkReportDir(ioIn(cwd), { flag: "--html", dir, file: "index.html" });
    if (why === null) expect(problems).toEqual([]);
    else {
      expect(problems.map((p) => p.code)).toEqual(["cli.file-unwritable"]);
      expect(problems[0]?.message).toMatch(new RegExp(`^--html ${dir}: cannot write there: `));
      expect(problems[0]?.message).toMatch(why);
    }
    // Checking has no side effects: nothing was created.
    expect(existsSync(join(cwd, "new"))).toBe(false);
  });
});

const requestCount = (rootUrl: string): Promise<number> => requestTotal({ rootUrl });

describe("preview --html DIR is checked before the first request", () => {
  it("--sandbox with DIR a regular file: cli.file-unwritable naming it, no sandbox opened", async () => {
    const cwd = workspace({ "summer.yaml": SCHEDULED_2030, "taken.txt": "a file\n" });
    const result = await runCli(["preview", "summer.yaml", "--html", "taken.txt", "--sandbox"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error\[cli\.file-unwritable\]: --html taken\.txt: cannot write there: \S*taken\.txt is a file, not a directory/,
    );
    // The embedded sandbox never started: it keeps its world under .campaignctl/ when it does.
    expect(existsSync(join(cwd, ".campaignctl"))).toBe(false);
    expect(readFileSync(join(cwd, "taken.txt"), "utf8")).toBe("a file\n");
  });

  test.each([["taken.txt"], ["taken.txt/gallery"]])(
    "--base-url with --html %s: a clear error and zero requests",
    async (dirArg) => {
      const one = {
        live: [liveProject(1, TEST_NOW)],
        files: { first: fileProject(1, { state: "tested", test: TEST_BLOCK }) },
      };
      await withCase(one, async (sandbox, cwd) => {
        writeFileSync(join(cwd, "taken.txt"), "a file\n");
        const env = { CAMPAIGNCTL_API_KEY: KEY };
        const args = ["preview", ".", "--base-url", sandbox.baseUrl, "--html"];
        const r = await runCli([...args, dirArg], { cwd, env });
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(
          new RegExp(`^error\\[cli\\.file-unwritable\\]: --html ${dirArg}: cannot write there: `),
        );
        expect(await requestCount(sandbox.rootUrl)).toBe(0);
        // The control: the same run with a writable DIR does reach the API.
        const fixed = await runCli([...args, "gallery"], { cwd, env });
        expect(fixed.code, fixed.stderr).toBe(0);
        expect(await requestCount(sandbox.rootUrl)).toBeGreaterThan(0);
      });
    },
  );
});
