/**
 * One flag chooses projects in preview, plan and apply: `--target ADDRESS` (and `--exclude`), both
 * repeatable. plan and apply also cover what a target is ordered after; preview shows exactly the
 * projects named. `--project`, preview's flag before, is a hidden alias that says it is deprecated.
 */
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../helpers/run-cli.js";

let cwd = "";
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), "campaignctl-selection-"));
  cpSync("examples", join(cwd, "examples"), { recursive: true });
});

const cli = (...argv: string[]) => runCli(argv, { cwd });

async function previewed(...flags: string[]): Promise<string[]> {
  const run = await cli("preview", "examples/", "--json", ...flags);
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as { projects: { address: string }[] }).projects.map((p) => p.address);
}

async function planned(...flags: string[]): Promise<string[]> {
  const run = await cli("plan", "--sandbox", "examples/", "--json", ...flags);
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as { projects: { address: string }[] }).projects.map((p) => p.address);
}

describe("--target and --exclude", () => {
  test.each(["preview", "plan", "apply"])(
    "%s --help lists --target and --exclude, not --project",
    async (command) => {
      const help = (await cli(command, "--help")).stdout;
      expect(help).toMatch(/^ {2}--target <address> /m);
      expect(help).toMatch(/^ {2}--exclude <address> /m);
      expect(help).not.toContain("--project");
    },
  );

  test.each([
    [["--target", "gotv-followup"], ["gotv-followup"]],
    [
      ["--target", "gotv-followup", "--target", "early-vote-push"],
      ["gotv-followup", "early-vote-push"],
    ],
    [
      ["--exclude", "gotv-followup"],
      ["gotv-reminder", "volunteer-recruitment", "early-vote-push", "runoff-notice-en", "runoff-notice-es"],
    ],
  ])("preview %j shows exactly %j", async (flags, addresses) => {
    expect((await previewed(...flags)).sort()).toEqual([...addresses].sort());
  });

  test("plan --target also covers what the target is ordered after", async () => {
    expect((await planned("--target", "gotv-followup")).sort()).toEqual(["gotv-followup", "gotv-reminder"]);
    expect(await planned("--target", "volunteer-recruitment")).toEqual(["volunteer-recruitment"]);
  }, 30_000);

  test.each([
    ["--target", "gotv-remider", "gotv-reminder"],
    ["--exclude", "volunteer-recruitmnt", "volunteer-recruitment"],
  ])("preview %s with an unknown address is a usage error with a suggestion", async (flag, typo, nearest) => {
    const run = await cli("preview", "examples/", flag, typo);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error[cli.usage]: ${flag} ${typo} names no project in the given files\n`);
    expect(run.stderr).toContain(`hint: did you mean ${nearest}?\n`);
  });

  test("preview --project still works, says it is deprecated, and means --target", async () => {
    const old = await cli("preview", "examples/", "--project", "gotv-reminder");
    const now = await cli("preview", "examples/", "--target", "gotv-reminder");
    expect(old.code).toBe(0);
    expect(old.stdout).toBe(now.stdout);
    expect(old.stderr).toBe(
      `campaignctl: warning: --project is deprecated and will be removed: use --target\n${now.stderr}`,
    );
  });
});
