/**
 * `import` over HTTP against the embedded sandbox's example world (examples/sandbox.yaml): every
 * project imported, then `plan` on the result shows no drift and nothing to do.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../helpers/run-cli.js";

describe("import: the example world round-trips", () => {
  test("import --sandbox --all, then plan --detailed-exitcode exits 0", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "cc-import-"));
    const imported = await runCli(["import", "--sandbox", "--all", "--out", "campaigns"], { cwd });
    expect(imported.stdout).toMatch(/^created campaigns\/riverside-democrats\.yaml \(/m);
    expect(imported.code).toBe(0);
    const text = readFileSync(join(cwd, "campaigns/riverside-democrats.yaml"), "utf8");
    expect(text).toContain("organization: Riverside Democrats\n");
    expect(text).toContain("  early-vote-push:\n");
    const plan = await runCli(["plan", "--sandbox", "campaigns", "--detailed-exitcode"], { cwd });
    expect(plan.stdout).toContain("Plan: 0 to do, 0 deferred, 0 blocked, 0 drifted; 0 errors");
    expect(plan.code).toBe(0);
  });
});
