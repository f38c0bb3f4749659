/**
 * `import --template` of a project scheduled at the second of a local time that happens twice
 * (clocks fall back): a template's `schedule: {local}` reads such a time as the first, one hour
 * earlier, so no template can describe it. Import says so (`import.template-schedule-repeated`,
 * naming the project and both instants) instead of `import.verify-failed` ("a bug"); nothing is
 * written. The first of the two is written and plans without drift.
 */
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { stringify } from "yaml";
import { runCli } from "../helpers/run-cli.js";
import { generateOrgWorld } from "../support/org-world.js";

const SANDBOX = ["--sandbox", "--fixture", "world.yaml"];

/** Both projects scheduled at `at` in New York; 2026-11-01 01:30 happens twice there. */
function workspace(at: string): string {
  const world = generateOrgWorld({ orgs: 2, projects: 1, parent: true, seed: 11 });
  const fixture = structuredClone(world.fixture);
  for (const p of fixture.projects ?? []) {
    p.status = "scheduled";
    p.scheduled_at = at;
    p.scheduled_timezone = "America/New_York";
  }
  const cwd = mkdtempSync(join(tmpdir(), "cc-template-repeated-"));
  writeFileSync(join(cwd, "world.yaml"), stringify(fixture));
  return cwd;
}

describe("import --template, a live time clocks repeat", () => {
  test("the second 01:30 (EST): refused as a user problem, not a bug; nothing written", async () => {
    const cwd = workspace("2026-11-01T06:30:00.000Z");
    const r = await runCli(
      ["import", ...SANDBOX, "--all", "--template", "gotv", "--out", "campaign", "--json"],
      { cwd },
    );
    const doc = JSON.parse(r.stdout);
    expect(doc.ok).toBe(false);
    const codes = doc.diagnostics.map((d: { code: string }) => d.code);
    expect(codes).toContain("import.template-schedule-repeated");
    expect(codes).not.toContain("import.verify-failed");
    const message = doc.diagnostics.find(
      (d: { code: string }) => d.code === "import.template-schedule-repeated",
    ).message;
    expect(message).toContain("2026-11-01T01:30");
    expect(message).toContain("2026-11-01T01:30:00-05:00");
    expect(r.code).toBe(1);
    expect(existsSync(join(cwd, "campaign", "gotv.yaml"))).toBe(false);
  });

  test("the first 01:30 (EDT): written, and plans without drift", async () => {
    const cwd = workspace("2026-11-01T05:30:00.000Z");
    const r = await runCli(["import", ...SANDBOX, "--all", "--template", "gotv", "--out", "campaign"], {
      cwd,
    });
    expect(r.code).toBe(0);
    const plan = await runCli(["plan", ...SANDBOX, "campaign", "--detailed-exitcode"], { cwd });
    expect(plan.stdout).toContain("0 drifted");
    expect(plan.code).toBe(0);
  });
});
