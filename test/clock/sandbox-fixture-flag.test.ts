/**
 * `plan --sandbox --fixture FILE` and `apply --sandbox --fixture FILE`: the embedded sandbox serves
 * the given world, its state kept apart per fixture file under `.campaignctl/sandbox/`, and named
 * per fixture file (`embeddedSandboxId`) in a plan's `base_url` and the read cache's scope;
 * `--fixture` without `--sandbox` is a usage error.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { cacheFile } from "../../cli/adapters/file-cache.js";
import { embeddedSandboxId, fixtureStatePath, SANDBOX_STATE_PATH } from "../../cli/gather/session.js";
import type { Fixture } from "../../src/sandbox/fixture/types.js";
import type { World } from "../../src/sandbox/state/world.js";
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

/** A working directory with the examples and two copies of the example world, `a/world.yaml` and `b/world.yaml`. */
function twoWorlds(): string {
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-fixture-id-"));
  dirs.push(cwd);
  cpSync("examples", join(cwd, "examples"), { recursive: true });
  for (const d of ["a", "b"]) {
    mkdirSync(join(cwd, d));
    // The example world keeps its own clock (`clock.start`), whatever today is.
    cpSync("examples/sandbox.yaml", join(cwd, d, "world.yaml"));
  }
  return cwd;
}

/** The world a fixture's embedded sandbox persisted (its effects and test messages are its log). */
function worldOf(cwd: string, fixture: string): World {
  const file = join(cwd, fixtureStatePath(resolve(cwd, fixture)));
  return (JSON.parse(readFileSync(file, "utf8")) as { world: World }).world;
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

  it("a plan made on one fixture is refused, before any request, on another of the same file name", async () => {
    const cwd = twoWorlds();
    const made = await runCli(
      ["plan", "--sandbox", "--fixture", "a/world.yaml", "examples/volunteers.yaml", "--out", "p.json"],
      { cwd },
    );
    expect(made.code, made.stderr).toBe(0);
    const a = embeddedSandboxId(resolve(cwd, "a/world.yaml"));
    const b = embeddedSandboxId(resolve(cwd, "b/world.yaml"));
    expect(a).toMatch(/^embedded-sandbox:world-[0-9a-f]{8}$/);
    expect(b).toMatch(/^embedded-sandbox:world-[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
    expect(JSON.parse(readFileSync(join(cwd, "p.json"), "utf8")).base_url).toBe(a);

    const refused = await runCli(["apply", "p.json", "--sandbox", "--fixture", "b/world.yaml", "--json"], {
      cwd,
    });
    expect(refused.code).toBe(1);
    const result = JSON.parse(refused.stdout) as {
      refused: { code: string; message: string; hint: string }[];
      requests: { total: number };
    };
    expect(result.refused.map((d) => d.code)).toEqual(["apply.base-url-mismatch"]);
    expect(result.requests.total).toBe(0);
    expect(result.refused[0]?.message).toBe(`the plan was made against ${a}, this apply talks to ${b}`);
    expect(result.refused[0]?.hint).toContain("--sandbox with the same --fixture");
    // b's world saw nothing: no effect, no test message, no idempotent request.
    const bWorld = worldOf(cwd, "b/world.yaml");
    expect(bWorld.effects).toEqual([]);
    expect(bWorld.testMessages).toEqual([]);
    expect(bWorld.idempotency).toEqual({});

    const accepted = await runCli(["apply", "p.json", "--sandbox", "--fixture", "a/world.yaml"], { cwd });
    expect(accepted.code, accepted.stdout + accepted.stderr).toBe(0);
    expect(accepted.stderr).toContain("it is the same plan");
    expect(worldOf(cwd, "a/world.yaml").effects.length).toBeGreaterThan(0);
    expect(worldOf(cwd, "b/world.yaml").effects).toEqual([]);
  });

  it("two fixtures of the same name keep two read caches, named as their plans' base_url", async () => {
    const cwd = twoWorlds();
    const planOn = async (fixture: string) => {
      const r = await runCli(["plan", "--sandbox", "--fixture", fixture, "examples/", "--json"], { cwd });
      return JSON.parse(r.stdout) as {
        base_url: string;
        organization_id: string;
        requests: { by_endpoint: Record<string, number> };
      };
    };
    const coldA = await planOn("a/world.yaml");
    const cache = join(cwd, ".campaignctl/cache");
    expect(readdirSync(cache)).toHaveLength(1);
    expect(existsSync(cacheFile(cwd, coldA.base_url, coldA.organization_id))).toBe(true);
    const byId = "GET /projects/{id}";
    expect(coldA.requests.by_endpoint[byId]).toBeGreaterThan(0);

    // b's first plan finds no cache of a's: it reads its projects by id, as a's first plan did.
    const coldB = await planOn("b/world.yaml");
    expect(coldB.base_url).not.toBe(coldA.base_url);
    expect(coldB.organization_id).toBe(coldA.organization_id);
    expect(coldB.requests.by_endpoint[byId]).toBe(coldA.requests.by_endpoint[byId]);
    expect(readdirSync(cache)).toHaveLength(2);
    expect(existsSync(cacheFile(cwd, coldB.base_url, coldB.organization_id))).toBe(true);

    // a's cache is warm and its own: fewer reads by id than cold.
    const warmA = await planOn("a/world.yaml");
    expect(warmA.requests.by_endpoint[byId] ?? 0).toBeLessThan(coldA.requests.by_endpoint[byId] ?? 0);
    expect(readdirSync(cache)).toHaveLength(2);
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
