/**
 * Round trip over HTTP: `import` a generated world with every field the contract has, then `plan`
 * the result: no drift, nothing to do (`--detailed-exitcode` 0).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { validatePlanDocument } from "../../src/report/plan-schema.js";
import { admin } from "../sandbox/helpers.js";
import { withSandbox } from "./helpers.js";
import { richWorld } from "./rich-world.js";

describe("import: a rich generated world round-trips", () => {
  test("every project, every field: plan shows nothing to do", async () => {
    await withSandbox(richWorld, async (c) => {
      const imported = await c.importing(["--all", "--out", "campaigns"]);
      expect(imported.stdout).toMatch(/^created campaigns\/test-democrats\.yaml \(/m);
      expect(imported.code).toBe(0);
      const text = readFileSync(join(c.dir, "campaigns/test-democrats.yaml"), "utf8");
      for (const line of [
        "fields:\n  - polling_place\n  - volunteer_shift\n  - website\n",
        "    type: survey\n",
        "    message: |+\n",
        "    message: >2-\n",
        "      - 00000000-0000-4000-8000-0000000000f4 # by id: Twin List: 2 contact lists share the name\n",
        "      daily_cap_bypass: true\n",
        "    pause:\n      reason: polling place changed\n",
        "    # test:\n",
        '      destination_url: "{{website}}"\n      fallback_url: https://test.vote/fallback\n',
      ])
        expect(text).toContain(line);
      // Past schedules (active, completed) keep their reviewed time: never `at: now`.
      expect(text).not.toContain("at: now");
      const plan = await c.planning(["campaigns", "--json", "--detailed-exitcode"]);
      const checked = validatePlanDocument(JSON.parse(plan.stdout));
      if (!checked.ok) throw new Error("plan document invalid");
      const p = checked.plan;
      expect(
        p.projects.map((x) => [
          x.address,
          x.drift,
          x.actions,
          x.diagnostics.filter((d) => d.severity === "error"),
        ]),
      ).toEqual(p.projects.map((x) => [x.address, [], [], []]));
      expect(plan.code).toBe(0);
    });
  });

  test("reads in bulk: one list read each, the stats windows, one read per project and attached record", async () => {
    await withSandbox(richWorld, async (c) => {
      expect((await c.importing(["--all", "--out", "campaigns"])).code).toBe(0);
      const response = await admin(c.sandbox, "GET", "/requests");
      const log = (response.body as { data: { counts: { per_route: Record<string, number> } } }).data;
      expect(log.counts.per_route).toEqual({
        "GET /organizations": 1,
        "GET /campaigns": 1,
        "GET /contact-lists": 1,
        "GET /phone-numbers": 1,
        "GET /projects/stats": 3,
        "GET /projects/{id}": 8,
        "GET /media/{id}": 2,
        "GET /toll-free-verifications/{id}": 1,
      });
    });
  });
});
