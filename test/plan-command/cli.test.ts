import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { validatePlanDocument } from "../../src/report/plan-schema.js";
import { TEST_NOW } from "../helpers/clock.js";
import { runCli } from "../helpers/run-cli.js";
import { admin } from "../sandbox/helpers.js";
import {
  campaignFile,
  fileProject,
  KEY,
  liveProject,
  scheduleAt,
  TEST_BLOCK,
  tempDir,
} from "./fixture-builder.js";
import { planIn, withCase } from "./harness.js";

const NOW = TEST_NOW;
const TWO = {
  live: [liveProject(1, NOW), liveProject(2, NOW, { status: "ready" })],
  files: {
    first: fileProject(1, { state: "tested", test: TEST_BLOCK }),
    second: fileProject(2, {
      state: "scheduled",
      test: TEST_BLOCK,
      schedule: scheduleAt(NOW, 4),
      after: ["first"],
    }),
  },
};

/** Every file under `dir`, recursively, as text. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");
}

async function requestLog(
  rootUrl: string,
): Promise<{ total: number; counts: { per_route: Record<string, number> } }> {
  return (await admin({ rootUrl }, "GET", "/requests")).body.data;
}

describe("plan: the command line", () => {
  test("human report, --out, --markdown; the key appears nowhere", async () => {
    await withCase(TWO, async (sandbox, dir) => {
      const r = await planIn(sandbox, dir, ["--out", "plan.json", "--markdown", "out/plan.md"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("first.test: planned");
      expect(r.stdout).not.toContain("\u001b[");
      const saved = JSON.parse(readFileSync(join(dir, "plan.json"), "utf8"));
      expect(validatePlanDocument(saved).ok).toBe(true);
      expect(saved.files[0].sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(saved.projects.map((p: { live: { status: string } }) => p.live.status)).toEqual([
        "draft",
        "ready",
      ]);
      expect(readFileSync(join(dir, "out/plan.md"), "utf8")).toContain("campaignctl plan");
      expect(existsSync(join(dir, ".campaignctl/cache"))).toBe(true);
      expect(`${r.stdout}${r.stderr}${allText(dir)}`).not.toContain(KEY);
    });
  });

  test("--json prints only the plan document; --detailed-exitcode says 2 for pending actions", async () => {
    await withCase(TWO, async (sandbox, dir) => {
      const r = await planIn(sandbox, dir, ["--json", "--detailed-exitcode"]);
      expect(r.code).toBe(2);
      const doc = JSON.parse(r.stdout);
      expect(validatePlanDocument(doc).ok).toBe(true);
      expect(doc.projects[1].actions.map((a: { id: string }) => a.id)).toEqual(["second.schedule"]);
      expect(doc.projects[1].actions[0].depends_on).toEqual(["first.test"]);
    });
  });

  test("--target and --exclude narrow the plan and the reads", async () => {
    await withCase(TWO, async (sandbox, dir) => {
      const target = JSON.parse((await planIn(sandbox, dir, ["--json", "--target", "first"])).stdout);
      expect(target.projects.map((p: { address: string }) => p.address)).toEqual(["first"]);
      expect(target.targets).toEqual(["first"]);
      expect(target.requests.by_endpoint["GET /projects/{id}"]).toBe(1);
      const excluded = await planIn(sandbox, dir, ["--json", "--exclude", "second", "--refresh"]);
      expect(JSON.parse(excluded.stdout).projects.map((p: { address: string }) => p.address)).toEqual([
        "first",
      ]);
      const unknown = await planIn(sandbox, dir, ["--target", "frist"]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("plan.unknown-address");
    });
  });

  test("invalid files stop before any request", async () => {
    await withCase(TWO, async (sandbox, dir) => {
      writeFileSync(join(dir, "broken.yaml"), "version: 1\nprojects:\n  bad: {id: 3, message: '{{oops'}\n");
      const r = await planIn(sandbox, dir, ["--json"]);
      expect(r.code).toBe(1);
      const doc = JSON.parse(r.stdout) as {
        error: boolean;
        diagnostics: { range: { file: string } | null }[];
      };
      expect(doc.error).toBe(true);
      expect(doc.diagnostics.some((d) => d.range?.file === "broken.yaml")).toBe(true);
      expect(r.stderr).toContain("broken.yaml");
      expect((await requestLog(sandbox.rootUrl)).total).toBe(0);
    });
  });

  test("a refused key names its variable, never the key", async () => {
    await withCase(TWO, async (sandbox, dir) => {
      const wrong = "pc_live_wrong_key_9f8e7d6c5b";
      const r = await planIn(sandbox, dir, ["--api-key-env", "MY_KEY"], { MY_KEY: wrong });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("the API key in MY_KEY was refused");
      expect(`${r.stdout}${r.stderr}`).not.toContain(wrong);
      const missing = await planIn(sandbox, dir, [], { CAMPAIGNCTL_API_KEY: undefined });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("api.no-key");
    });
  });

  test("with --json, a plan that cannot be made still prints one JSON document saying why", async () => {
    await withCase(TWO, async (sandbox, dir) => {
      const wrong = "pc_live_wrong_key_9f8e7d6c5b";
      const r = await planIn(sandbox, dir, ["--json"], { CAMPAIGNCTL_API_KEY: wrong });
      expect(r.code).toBe(1);
      const doc = JSON.parse(r.stdout) as {
        format_version: number;
        error: boolean;
        diagnostics: { code: string }[];
      };
      expect(doc.format_version).toBe(3);
      expect(doc.error).toBe(true);
      expect(doc.diagnostics.map((d) => d.code)).toContain("api.unauthorized");
      expect(r.stdout).not.toContain(wrong);
    });
  });

  test("plain http to a host other than loopback is refused before any request", async () => {
    const dir = tempDir({ "c.yaml": campaignFile({ one: fileProject(1) }) });
    const r = await runCli(["plan", "--base-url", "http://api.example.com/v1"], {
      cwd: dir,
      env: { CAMPAIGNCTL_API_KEY: KEY },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("api.insecure-url");
    expect(r.stderr).not.toContain(KEY);
  });

  test("a corrupt cache is ignored with a warning; --refresh reads every project again", async () => {
    await withCase(TWO, async (sandbox, dir) => {
      expect((await planIn(sandbox, dir, ["--json"])).code).toBe(0);
      const warm = JSON.parse((await planIn(sandbox, dir, ["--json"])).stdout);
      expect(warm.requests.by_endpoint["GET /projects/{id}"]).toBeUndefined();
      const refreshed = JSON.parse((await planIn(sandbox, dir, ["--json", "--refresh"])).stdout);
      expect(refreshed.requests.by_endpoint["GET /projects/{id}"]).toBe(2);
      const cacheDir = join(dir, ".campaignctl/cache");
      for (const sub of readdirSync(cacheDir)) writeFileSync(join(cacheDir, sub, "live.json"), "{not json");
      const r = await planIn(sandbox, dir, ["--json"]);
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc.requests.by_endpoint["GET /projects/{id}"]).toBe(2);
      expect(
        doc.diagnostics.map((d: { code: string; severity: string }) => `${d.severity} ${d.code}`),
      ).toEqual(["warning cli.file-unreadable"]);
    });
  });

  test("--sandbox plans the examples against the embedded sandbox, keeping its state in .campaignctl", async () => {
    const dir = tempDir({});
    cpSync("examples", join(dir, "campaigns"), { recursive: true });
    const r = await runCli(["plan", "--sandbox", "campaigns/", "--json"], { cwd: dir, env: {} });
    const doc = JSON.parse(r.stdout);
    expect(validatePlanDocument(doc).ok).toBe(true);
    expect(doc.base_url).toBe("embedded-sandbox:default");
    expect(doc.projects.length).toBeGreaterThan(0);
    expect(existsSync(join(dir, ".campaignctl/sandbox/state.json"))).toBe(true);
    expect(r.stdout).not.toContain("pc_live_");
    expect(r.stderr).not.toContain("pc_live_");
  });
});
