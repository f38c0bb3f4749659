/**
 * The generated many-organization world (issue 26, item 7): deterministic by seed, valid against
 * schemas/fixture.schema.json and its references, the script writes what tests build in-process,
 * names shared by every organization resolve in each one's own, and the sandbox's rate limit is per
 * key (100 a minute), not per organization, over real HTTP on loopback. The script runs as a Node
 * process twice (the files it writes with exit 0, a usage error's exit 2): its other answers to its
 * flags run its `main` in this process, the same code without a Node start (0.15 s of CPU) each.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { parse } from "yaml";
import { main } from "../../scripts/gen-org-world.mjs";
import { loadFixtureFile, validateFixtureData } from "../../src/sandbox/fixture/load.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import {
  generateOrgWorld,
  orgWorld,
  startOrgWorld,
  WORLD_DO_NOT_TEXT,
  WORLD_LIKELY_VOTERS,
  WORLD_MESSAGES,
  worldKeyEnvironment,
} from "../support/org-world.js";
import { api } from "./helpers.js";

const SCRIPT = fileURLToPath(new URL("../../scripts/gen-org-world.mjs", import.meta.url));

/** The script's `main` in this process (its flags, output and exit code, without a Node process each). */
async function inProcess(
  args: readonly string[],
): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const status = await main(args, {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
  });
  return { status, stdout, stderr };
}

let sb: SandboxHandle | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

describe("generateOrgWorld", () => {
  test("is valid against the fixture schema and its references, at several sizes and modes", () => {
    for (const options of [
      { orgs: 1, projects: 1 },
      { orgs: 3, projects: 4, seed: 9 },
      { orgs: 35, projects: 2, mode: "scheduled" as const },
    ]) {
      const world = generateOrgWorld(options);
      expect(validateFixtureData(structuredClone(world.fixture))).toEqual([]);
      expect(world.fixture.organizations).toHaveLength(options.orgs);
      expect(world.fixture.projects).toHaveLength(options.orgs * options.projects);
    }
  });

  test("is deterministic by seed: same seed same world, another seed other keys", () => {
    expect(JSON.stringify(generateOrgWorld({ orgs: 4, projects: 3, seed: 42 }))).toBe(
      JSON.stringify(generateOrgWorld({ orgs: 4, projects: 3, seed: 42 })),
    );
    const a = generateOrgWorld({ orgs: 4, projects: 3, seed: 1 }).organizations.map((o) => o.key);
    const b = generateOrgWorld({ orgs: 4, projects: 3, seed: 2 }).organizations.map((o) => o.key);
    expect(a.filter((k) => b.includes(k))).toEqual([]);
  });

  test("each organization has its own key, brand, registration, numbers and the two shared list names", () => {
    const world = orgWorld({ orgs: 3, projects: 2 });
    const f = world.fixture;
    const names = world.organizations.map((o) => o.name);
    expect(new Set(names).size).toBe(3);
    expect(world.organizations.map((o) => o.key)).toEqual(
      world.organizations.map((_o, i) => expect.stringMatching(new RegExp(`^pc_live_sbx_o0${i + 1}_rw_`))),
    );
    for (const org of world.organizations) {
      expect(org.slug).toMatch(/^[A-Z0-9]+(_[A-Z0-9]+)*$/);
      expect(f.api_keys?.filter((k) => k.organization_id === org.id && k.type === "read-write")).toHaveLength(
        1,
      );
      expect(f.brands?.filter((b) => b.organization_id === org.id)).toHaveLength(1);
      expect(f.phone_numbers?.filter((n) => n.organization_id === org.id)).toHaveLength(2);
      expect(f.contact_lists?.filter((l) => l.organization_id === org.id).map((l) => l.name)).toEqual([
        WORLD_LIKELY_VOTERS,
      ]);
      expect(f.suppression_lists?.filter((l) => l.organization_id === org.id).map((l) => l.name)).toEqual([
        WORLD_DO_NOT_TEXT,
      ]);
    }
    expect(new Set(f.phone_numbers?.map((n) => n.number)).size).toBe(6);
    expect(Object.keys(worldKeyEnvironment(world))).toEqual(
      world.organizations.map((o) => `CAMPAIGNCTL_API_KEY_${o.slug}`),
    );
  });

  test("the campaign file has one template with en/es and one instance per project, text equal to the live text", () => {
    const world = orgWorld({ orgs: 2, projects: 3, mode: "scheduled" });
    const template = (world.campaign.templates as Record<string, Record<string, unknown>>).gotv;
    expect(template?.message).toEqual(WORLD_MESSAGES);
    expect(template?.state).toBe("scheduled");
    expect(template?.schedule).toEqual({ local: "2026-12-07T10:00" });
    const instances = template?.instances as Record<
      string,
      { organization: string; id: string; language: "en" | "es" }
    >;
    expect(Object.keys(instances)).toHaveLength(6);
    for (const instance of Object.values(instances)) {
      const live = world.fixture.projects?.find((p) => p.project_id === instance.id);
      const org = world.fixture.organizations.find((o) => o.id === live?.organization_id);
      expect(org?.name).toBe(instance.organization);
      expect(live?.message_text).toBe(WORLD_MESSAGES[instance.language]);
      expect(live?.status).toBe("ready");
    }
    expect(Object.values(instances).map((i) => i.language)).toEqual(["en", "es", "en", "en", "es", "en"]);
  });

  test("options out of range are refused", () => {
    expect(() => generateOrgWorld({ orgs: 0, projects: 1 })).toThrow("--orgs");
    expect(() => generateOrgWorld({ orgs: 1, projects: 1.5 })).toThrow("--projects");
  });
});

describe("scripts/gen-org-world.mjs", () => {
  test("writes the fixture tests build in-process, and the campaign file", () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-gen-world-"));
    try {
      const out = join(dir, "world.yaml");
      execFileSync(
        process.execPath,
        [
          SCRIPT,
          "--orgs",
          "3",
          "--projects",
          "2",
          "--seed",
          "7",
          "--out",
          out,
          "--campaign",
          join(dir, "campaign"),
        ],
        { env: process.env },
      );
      const loaded = loadFixtureFile(out);
      expect(loaded.ok).toBe(true);
      const world = generateOrgWorld({ orgs: 3, projects: 2, seed: 7 });
      expect(parse(readFileSync(out, "utf8"))).toEqual(world.fixture);
      const campaign = readFileSync(join(dir, "campaign", "gotv.yaml"), "utf8");
      expect(parse(campaign)).toEqual(world.campaign);
      // Written out in full, no YAML anchors: our loader refuses more than 100 alias expansions, so an
      // aliased file of 150 projects per organization could not be loaded.
      expect(campaign).not.toMatch(/: [&*]a\d/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("--keys-env prints the fixture's keys by the naming rule; an unwritable --out is exit 1", async () => {
    const world = generateOrgWorld({ orgs: 2, projects: 1, parent: true });
    const run = await inProcess(["--orgs", "2", "--projects", "1", "--parent", "--keys-env"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(
      [
        `export CAMPAIGNCTL_API_KEY=${world.parent?.key}`,
        ...world.organizations.map((o) => `export CAMPAIGNCTL_API_KEY_${o.slug}=${o.key}`),
        "",
      ].join("\n"),
    );
    expect(parse(run.stdout)).toEqual(world.fixture);
    const bad = await inProcess(["--orgs", "1", "--projects", "1", "--out", "/nonexistent/dir/w.yaml"]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe("gen-org-world: cannot write: ENOENT /nonexistent/dir/w.yaml\n");
  });

  test.each([
    [["--orgs", "2"], "--orgs and --projects are required"],
    [["--orgs", "0", "--projects", "1"], "--orgs must be an integer from 1 to 999"],
    [["--orgs", "2x", "--projects", "1"], "--orgs must be an integer"],
    [["--orgs", "2", "--projects", "1", "--mode", "live"], "--mode must be draft or scheduled"],
    [["--orgs", "2", "--projects", "1", "--org", "3"], "Unknown option '--org'"],
  ])("%j is a usage error (exit 2)", async (args, message) => {
    const run = await inProcess(args);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe("");
  });

  test("run as a script, a usage error is the process's exit 2, on stderr", () => {
    const run = spawnSync(process.execPath, [SCRIPT, "--orgs", "0", "--projects", "1"], {
      encoding: "utf8",
      env: process.env,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe("gen-org-world: --orgs must be an integer from 1 to 999\n");
    expect(run.stdout).toBe("");
  });
});

describe("the sandbox serving a generated world", () => {
  test("each key sees its own organization's lists under the shared names", async () => {
    const world = orgWorld({ orgs: 3, projects: 1 });
    sb = await startOrgWorld(world);
    for (const org of world.organizations) {
      const lists = await api(sb, "GET", "/contact-lists", { key: org.key });
      expect(lists.status).toBe(200);
      const ids = JSON.stringify(lists.body);
      expect(ids).toContain(org.likelyVotersId);
      for (const other of world.organizations.filter((o) => o !== org))
        expect(ids).not.toContain(other.likelyVotersId);
      const project = await api(sb, "GET", `/projects/${org.projects[0]?.id}`, { key: org.key });
      expect(project.status).toBe(200);
      const foreign = world.organizations.find((o) => o !== org)?.projects[0]?.id;
      expect((await api(sb, "GET", `/projects/${foreign}`, { key: org.key })).status).toBe(403);
    }
  });

  test("the rate limit is 100 a minute per key, not per organization", async () => {
    const world = orgWorld({ orgs: 2, projects: 1 });
    const [first, second] = world.organizations;
    if (first === undefined || second === undefined) throw new Error("two organizations expected");
    const fixture = structuredClone(world.fixture);
    const sameOrgKey = "pc_live_sbx_o01_rw_SecondKey42";
    fixture.api_keys.push({
      id: "key_o001_rw_2",
      key: sameOrgKey,
      organization_id: first.id,
      type: "read-write",
      scopes: ["public:read", "public:write"],
    });
    sb = await startOrgWorld({ ...world, fixture }, { rateLimits: true });
    for (let i = 0; i < 100; i++)
      expect((await api(sb, "GET", "/organizations", { key: first.key })).status).toBe(200);
    const over = await api(sb, "GET", "/organizations", { key: first.key });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe("RATE_LIMIT_EXCEEDED");
    // Another key of the same organization, and the other organization's key, have full windows.
    const sibling = await api(sb, "GET", "/organizations", { key: sameOrgKey });
    expect(sibling.status).toBe(200);
    expect(sibling.headers.get("x-ratelimit-remaining")).toBe("99");
    const other = await api(sb, "GET", "/organizations", { key: second.key });
    expect(other.status).toBe(200);
    expect(other.headers.get("x-ratelimit-limit")).toBe("100");
    expect(other.headers.get("x-ratelimit-remaining")).toBe("99");
    // The window slides on the virtual clock: a minute later the first key is served again.
    await sb.clock.advance(60_000);
    expect((await api(sb, "GET", "/organizations", { key: first.key })).status).toBe(200);
  });
});
