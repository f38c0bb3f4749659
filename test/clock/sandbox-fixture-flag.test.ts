/**
 * `plan --sandbox --fixture FILE` and `apply --sandbox --fixture FILE`: the embedded sandbox serves
 * the given world, its state kept apart per fixture file under `.campaignctl/sandbox/`; `--fixture`
 * without `--sandbox` is a usage error.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { fixtureStatePath, SANDBOX_STATE_PATH } from "../../cli/session.js";
import type { Fixture } from "../../src/sandbox/fixture/types.js";
import { runCli } from "../helpers/run-cli.js";
import { GOTV_REMINDER } from "../sandbox/helpers.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A working directory with the examples, and `worlds/no-reminder.yaml`: the example world without the GOTV reminder. */
function workspace(): string {
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-fixture-flag-"));
  dirs.push(cwd);
  cpSync("examples", join(cwd, "examples"), { recursive: true });
  cpSync("schemas", join(cwd, "schemas"), { recursive: true });
  const fixture = parse(readFileSync("examples/sandbox.yaml", "utf8")) as Fixture;
  fixture.projects = (fixture.projects ?? []).filter((p) => p.project_id !== GOTV_REMINDER);
  fixture.conversations = (fixture.conversations ?? []).filter((c) => c.project_id !== GOTV_REMINDER);
  mkdirSync(join(cwd, "worlds"));
  writeFileSync(join(cwd, "worlds", "no-reminder.yaml"), stringify(fixture));
  return cwd;
}

interface PlanDoc {
  projects: { address: string; diagnostics: { code: string }[] }[];
}

describe("--sandbox --fixture FILE", () => {
  it("plans against that world, with its own state file", async () => {
    const cwd = workspace();
    const own = await runCli(
      ["plan", "--sandbox", "--fixture", "worlds/no-reminder.yaml", "examples/gotv.yaml", "--json"],
      { cwd },
    );
    const doc = JSON.parse(own.stdout) as PlanDoc;
    const codes = doc.projects.find((p) => p.address === "gotv-reminder")?.diagnostics.map((d) => d.code);
    expect(codes).toContain("plan.project-not-found");
    const statePath = fixtureStatePath(resolve(cwd, "worlds/no-reminder.yaml"));
    expect(statePath).toMatch(/^\.campaignctl\/sandbox\/no-reminder-[0-9a-f]{8}\/state\.json$/);
    expect(existsSync(join(cwd, statePath))).toBe(true);
    expect(existsSync(join(cwd, SANDBOX_STATE_PATH))).toBe(false);

    // The example world is untouched by it, and has the reminder.
    const example = await runCli(["plan", "--sandbox", "examples/gotv.yaml", "--json"], { cwd });
    const exampleDoc = JSON.parse(example.stdout) as PlanDoc;
    expect(
      exampleDoc.projects.find((p) => p.address === "gotv-reminder")?.diagnostics.map((d) => d.code),
    ).not.toContain("plan.project-not-found");
    expect(existsSync(join(cwd, SANDBOX_STATE_PATH))).toBe(true);
  });

  it("apply uses the same world and state", async () => {
    const cwd = workspace();
    const args = ["--sandbox", "--fixture", "worlds/no-reminder.yaml", "examples/volunteers.yaml"];
    const applied = await runCli(["apply", ...args, "--auto-approve"], { cwd });
    expect(applied.code, applied.stderr).toBe(0);
    const again = await runCli(["plan", ...args, "--detailed-exitcode"], { cwd });
    expect(again.code, again.stdout).toBe(0);
    expect(existsSync(join(cwd, fixtureStatePath(resolve(cwd, "worlds/no-reminder.yaml"))))).toBe(true);
    expect(existsSync(join(cwd, SANDBOX_STATE_PATH))).toBe(false);
  });

  it("two fixtures of the same name keep two worlds", () => {
    expect(fixtureStatePath("/a/world.yaml")).not.toBe(fixtureStatePath("/b/world.yaml"));
    expect(fixtureStatePath("/a/world.yaml")).toBe(fixtureStatePath("/a/world.yaml"));
  });

  it.each(["plan", "apply"])("%s: --fixture without --sandbox is a usage error", async (command) => {
    const cwd = workspace();
    const r = await runCli([command, "--fixture", "worlds/no-reminder.yaml", "examples/"], {
      cwd,
      env: { CAMPAIGNCTL_API_KEY: "pc_live_not_used_Xx1" },
    });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("--fixture needs --sandbox");
  });

  it("a broken fixture is reported at its line, and nothing is planned", async () => {
    const cwd = workspace();
    writeFileSync(join(cwd, "worlds", "broken.yaml"), "version: 1\norganizations: 7\n");
    const r = await runCli(["plan", "--sandbox", "--fixture", "worlds/broken.yaml", "examples/"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/broken\.yaml:\d+:\d+: /);
  });
});
