/**
 * Round trip of issue 26, item 6: `import --template` from live projects of several organizations,
 * then `plan` on the file it wrote shows no drift and nothing to do; and the generated world's own
 * campaign file (scripts/gen-org-world.mjs --campaign) plans without drift too. Against the embedded
 * sandbox serving a generated world (a parent key reads every county; each county has its own key).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { stringify } from "yaml";
import { runCli } from "../helpers/run-cli.js";
import { generateOrgWorld, type OrgWorld, writeWorldCampaign } from "../support/org-world.js";

function workspace(world: OrgWorld, cwd = mkdtempSync(join(tmpdir(), "cc-template-round-trip-"))): string {
  writeFileSync(join(cwd, "world.yaml"), stringify(world.fixture));
  return cwd;
}

const SANDBOX = ["--sandbox", "--fixture", "world.yaml"];

describe("import --template, then plan", () => {
  test("shows no drift and nothing to do, with live schedules in two zones and a list that differs", async () => {
    const world = generateOrgWorld({ orgs: 3, projects: 2, parent: true, seed: 11 });
    const [first, second, third] = world.organizations;
    const fixture = structuredClone(world.fixture);
    for (const p of fixture.projects ?? []) {
      if (p.organization_id === first?.id) {
        p.status = "scheduled";
        p.scheduled_at = "2026-12-07T16:00:00.000Z";
        p.scheduled_timezone = "America/Chicago";
      }
      if (p.organization_id === second?.id) {
        p.status = "scheduled";
        p.scheduled_at = "2026-12-07T15:00:00.000Z";
        p.scheduled_timezone = "America/New_York";
      }
    }
    // The third county's Spanish project goes to another list of its own.
    fixture.contact_lists?.push({
      id: "e1000003-0000-4000-8000-0000000000aa",
      name: "Ward 3 Likely Voters",
      organization_id: third?.id ?? "",
      contacts: [{ phone: "+13030039990", fields: { first_name: "Ana", polling_place: "Library" } }],
    });
    const es = fixture.projects?.find((p) => p.project_id === third?.projects[1]?.id);
    if (es !== undefined) es.contact_list_ids = ["e1000003-0000-4000-8000-0000000000aa"];
    const cwd = workspace({ ...world, fixture });

    const imported = await runCli(
      ["import", ...SANDBOX, "--all", "--template", "gotv", "--out", "campaign"],
      {
        cwd,
      },
    );
    expect(imported.code).toBe(0);
    const plan = await runCli(["plan", ...SANDBOX, "campaign", "--detailed-exitcode"], { cwd });
    expect(plan.stderr).not.toContain("drift");
    expect(plan.stdout).toContain("0 drifted");
    expect(plan.code).toBe(0);

    // The control: the same file with the template's text edited is drift in every English instance.
    const file = join(cwd, "campaign", "gotv.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("Reply STOP to opt out", "Reply STOP to quit"));
    const drifted = await runCli(["plan", ...SANDBOX, "campaign", "--detailed-exitcode", "--json"], { cwd });
    expect(drifted.code).not.toBe(0);
    expect(JSON.parse(drifted.stdout).summary.drifted).toBe(3);
  });

  test("the generated world's own campaign file plans without drift", async () => {
    const world = generateOrgWorld({ orgs: 3, projects: 2, parent: true, seed: 5 });
    const cwd = workspace(world, writeWorldCampaign(world));
    const plan = await runCli(["plan", ...SANDBOX, "campaign", "--detailed-exitcode"], { cwd });
    expect(plan.stdout).toContain("0 drifted");
    expect(plan.code).toBe(0);
  });
});
