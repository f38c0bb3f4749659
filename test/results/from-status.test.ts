/**
 * `status --record` and `watch --record` record through the same code as `results record`, with
 * their own session (the embedded sandbox here, its keys per organization): every project the keys
 * see, into the results store; the status or the watch itself is unchanged.
 */
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { admin } from "../sandbox/helpers.js";
import { storeLines } from "./harness.js";

const workspace = () => {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-results-status-"));
  cpSync("examples", join(dir, "examples"), { recursive: true });
  return dir;
};

describe("--record", () => {
  it("status --all --record shows the status and records every project", async () => {
    const cwd = workspace();
    const result = await runCli(["status", "--sandbox", "--all", "--record", "--json"], { cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).projects.length).toBe(6);
    expect(result.stderr).toContain("Recorded 6 snapshots of 6 projects");
    expect(storeLines(join(cwd, "results")).map((l) => l.file)).toEqual(
      Array(6).fill("riverside-democrats/2026-12.jsonl"),
    );
  });

  it("status --record of the campaign files records every project the keys see, into --results-dir", async () => {
    const cwd = workspace();
    const result = await runCli(["status", "--sandbox", "examples/", "--record", "--results-dir", "store"], {
      cwd,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(storeLines(join(cwd, "store"))).toHaveLength(6);
  });

  it("watch --once --record records the hour once", async () => {
    const cwd = workspace();
    const result = await runCli(["watch", "--sandbox", "examples/", "--once", "--record", "--json"], { cwd });
    expect([0, 2]).toContain(result.code);
    expect(result.stdout).toContain("results.recorded");
    expect(storeLines(join(cwd, "results"))).toHaveLength(6);
  });

  it("a bad --store is refused before anything is read", async () => {
    const result = await runCli(["status", "--sandbox", "--all", "--record", "--store", "sqlite"], {
      cwd: workspace(),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--store sqlite is not a store");
  });
});

describe("requests per key", () => {
  it("each key makes one GET /organizations and ceil(N/1000) statistics pages, nothing else", async () => {
    const { generateOrgWorld, startOrgWorld, worldKeyEnvironment } = await import("../support/org-world.js");
    const { record } = await import("./harness.js");
    const world = generateOrgWorld({ orgs: 3, projects: 4 });
    const sb = await startOrgWorld(world, { timeScale: 0, rateLimits: true });
    try {
      const cwd = mkdtempSync(join(tmpdir(), "campaignctl-results-keys-"));
      const env = worldKeyEnvironment(world);
      const result = await record(sb, cwd, ["--json"], { json: true }, {}, env);
      expect(result.code, result.stderr).toBe(0);
      const body = (await admin(sb, "GET", "/requests")).body as {
        data: { requests: { method: string; route: string; key_organization_id: string }[] };
      };
      const log = body.data.requests;
      for (const org of world.organizations) {
        const mine = log.filter((e) => e.key_organization_id === org.id).map((e) => `${e.method} ${e.route}`);
        expect(mine.sort()).toEqual(["GET /organizations", "GET /projects/stats"]);
      }
      expect(log).toHaveLength(6);
      expect(JSON.parse(result.stdout)).toMatchObject({ projects: 12, written: 12 });
    } finally {
      await sb.close();
    }
  });
});
