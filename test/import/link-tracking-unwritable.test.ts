/**
 * Live link tracking whose param field or fallback the file format cannot hold (`Precinct-ID`, a
 * fallback without a scheme) is left out whole, with a comment, as a destination the format cannot
 * hold is: before, only that member was left out, in silence, and a member the file omits is not
 * compared, so a later dashboard edit of it (the fallback now leading elsewhere) showed neither in
 * `import --check` nor in `plan`. Now the project that sends says link tracking is not described
 * (`plan.drift`), which blocks its sends until the file or the dashboard is fixed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { dashboardEdit, withSandbox } from "./helpers.js";
import { RICH_IDS, richWorld } from "./rich-world.js";

const FILE = "campaigns/test-democrats.yaml";
const MMS = RICH_IDS[2] ?? "";

describe("import: live link tracking the file format cannot hold", () => {
  for (const [member, first, later, comment] of [
    [
      "link_tracking_param_field",
      "Precinct-ID",
      "Ward-ID",
      'link_tracking: left out, its param field "Precinct-ID" is not a field name the file format accepts',
    ],
    [
      "link_tracking_fallback_url",
      "www.test.vote/fallback",
      "www.elsewhere.example/",
      'link_tracking: left out, its fallback "www.test.vote/fallback" is not a URL the file format accepts',
    ],
  ] as const)
    test(`${member} ${first}: left out whole, and a later edit of it is drift`, async () => {
      await withSandbox(richWorld, async (c) => {
        await dashboardEdit(c.sandbox, MMS, { [member]: first });
        const imported = await c.importing(["--all", "--out", "campaigns"]);
        expect(imported.code).toBe(0);
        const text = readFileSync(join(c.dir, FILE), "utf8");
        expect(text).toContain(`# ${comment}`);
        expect(parse(text).projects["volunteer-mms"].link_tracking).toBeUndefined();

        await dashboardEdit(c.sandbox, MMS, { [member]: later });
        const plan = await c.planning(["campaigns", "--json"]);
        const project = JSON.parse(plan.stdout).projects.find(
          (p: { address: string }) => p.address === "volunteer-mms",
        );
        expect(
          project.drift.map((d: { field: string; after_text: string }) => [d.field, d.after_text]),
        ).toEqual([["link_tracking", "not described"]]);
        expect(plan.code).toBe(1);
      });
    });
});
