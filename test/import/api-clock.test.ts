/**
 * Import's date windows are the API's (design.md, "One clock, the API's"): with this machine's
 * clock months behind or ahead of the API's, `import --all`, `--status`, `--organization` and
 * `--check` read `GET /projects/stats` over windows computed on the API's clock, so every window
 * is one the API accepts (the sandbox refuses a start more than 90 days before its own today and
 * the projects of the world were all created around its today). Issue 35, point 1.
 */
import { describe, expect, test } from "vitest";
import { admin } from "../sandbox/helpers.js";
import { withSandbox } from "./helpers.js";
import { richWorld } from "./rich-world.js";

const DAY = 86_400_000;

describe.each([
  ["behind", -120 * DAY],
  ["ahead of", 120 * DAY],
  ["3 days behind", -3 * DAY],
])("this machine's clock %s the API's", (_name, machineAheadMs) => {
  test("import --all, --status, --organization and --check read the API's windows", async () => {
    await withSandbox(
      richWorld,
      async (c) => {
        const all = await c.importing(["--all", "--out", "campaigns", "--json"]);
        expect(all.stderr).not.toContain("api.rejected");
        expect(all.code).toBe(0);
        const imported = JSON.parse(all.stdout);
        expect(imported.ok).toBe(true);
        expect(imported.projects.length).toBeGreaterThan(5);

        const check = await c.importing(["--all", "--out", "campaigns", "--check"]);
        expect(check.stderr).not.toContain("api.rejected");
        expect(check.code).toBe(0);

        const scheduled = await c.importing(["--status", "scheduled", "--out", "scheduled", "--json"]);
        expect(scheduled.code).toBe(0);
        expect(JSON.parse(scheduled.stdout).projects.length).toBeGreaterThan(0);

        const org = await c.importing(["--organization", "Test Democrats", "--out", "org", "--json"]);
        expect(org.stderr).not.toContain("api.rejected");
        expect(org.code).toBe(0);
        expect(JSON.parse(org.stdout).projects).toHaveLength(imported.projects.length);

        // Every window asked for is within the API's 90 days, counted on the API's clock.
        const log = (await admin(c.sandbox, "GET", "/requests")).body as {
          data: { requests: { path: string; route: string | null; status: number }[] };
        };
        const stats = log.data.requests.filter((r) => r.route === "/projects/stats");
        expect(stats.length).toBeGreaterThan(0);
        expect(stats.every((r) => r.status === 200)).toBe(true);
      },
      { machineAheadMs },
    );
  });
});
