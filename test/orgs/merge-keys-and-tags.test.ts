/**
 * A YAML merge key under a template's `instances:` (`!!merge <<:`, or `<<:` in a `%YAML 1.1` file):
 * the `yaml` library merges the instances it names into the data, but instances are declared by the
 * keys written, so before the fix those instances were in no check and no plan, in silence:
 * `validate` counted no error, `apply` reported success (exit 0) and never paused the project the
 * file says to pause. Now a merge key is `campaign.yaml-merge-key`, wherever it is, and `apply`
 * stops before any write. The same for a value of a tag's own type (`defaults: !!omap [...]`, read
 * as empty): `campaign.yaml-tag`. Over the sandbox on loopback, effects from `/_sandbox/effects`.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { admin } from "../sandbox/helpers.js";
import { apply, type Bed, bed, closeBeds, orgKeys } from "./harness.js";
import type { OrgWorldOrg } from "./world.js";

afterEach(closeBeds);

async function effects(b: Bed): Promise<{ project_id: string; kind: string }[]> {
  return (await admin(b.sb, "GET", "/effects")).body.data.effects as { project_id: string; kind: string }[];
}

/**
 * One template over the organizations' projects: each organization's first project an instance as
 * written, its second (to be paused) an instance the merge key brings in.
 */
function templateFile(orgs: readonly OrgWorldOrg[], directive: "1.1" | "1.2"): string {
  const instance = (org: OrgWorldOrg, index: number, state: string, indent: string) => {
    const p = org.projects[index] as OrgWorldOrg["projects"][number];
    const keys = [
      `organization: ${org.name}`,
      `id: ${p.id}`,
      "language: en",
      `brand: ${org.name}`,
      `phone_numbers: ["+1503555${String(org.index).padStart(4, "0")}"]`,
      `state: ${state}`,
    ];
    return `${indent}${p.address}:\n${keys.map((k) => `${indent}  ${k}\n`).join("")}`;
  };
  return `${directive === "1.1" ? "%YAML 1.1\n---\n" : ""}version: 1
merge_defaults: {first_name: friend}
templates:
  gotv:
    message:
      en: "Hi {{first_name|friend}}, vote Tuesday. Reply STOP to opt out"
    channel: 10dlc
    campaign: GOTV 2026
    contact_lists: [Likely Voters]
    suppression_lists: [Do Not Text]
    timezone: America/Chicago
    schedule: {local: "2026-12-07T10:00"}
    instances:
${orgs.map((org) => instance(org, 0, "scheduled", "      ")).join("")}      ${directive === "1.1" ? "<<" : "!!merge <<"}:
${orgs.map((org) => instance(org, 1, "paused", "        ")).join("")}`;
}

test.each(["1.2", "1.1"] as const)(
  "a merge key under instances (YAML %s) stops apply before any write, never a silent success",
  async (directive) => {
    const b = await bed(2, 2);
    const env = orgKeys(b);
    // Every project scheduled by the honest per-organization files.
    expect((await apply(b, env)).code).toBe(0);
    const scheduled = (await effects(b)).filter((e) => e.kind === "schedule").length;
    expect(scheduled).toBe(4);

    for (const org of b.world.orgs) rmSync(join(b.world.dir, org.file));
    const text = templateFile(b.world.orgs, directive);
    writeFileSync(join(b.world.dir, "campaign", "gotv.yaml"), text);
    const before = (await effects(b)).length;

    const run = await apply(b, env);
    // Before the fix: exit 0, the second project of each organization never paused.
    expect(run.code).toBe(1);
    const line = text.split("\n").findIndex((l) => l.includes("<<:")) + 1;
    expect(run.stdout + run.stderr).toContain(`campaign/gotv.yaml:${line}:`);
    expect(run.stdout + run.stderr).toContain("error[campaign.yaml-merge-key]");
    expect((await effects(b)).length).toBe(before);
  },
);

test("defaults written as an ordered map (`!!omap`) stop apply, never read as empty: the pause is not dropped in silence", async () => {
  const b = await bed(1, 2);
  const env = orgKeys(b);
  expect((await apply(b, env)).code).toBe(0);
  const org = b.world.orgs[0] as OrgWorldOrg;
  const projects = org.projects.map((p) => `  ${p.address}: {id: ${p.id}}\n`).join("");
  const text = `version: 1\norganization: ${org.name}\ndefaults: !!omap\n  - state: paused\n  - pause: {reason: stop the reminder}\nprojects:\n${projects}`;
  writeFileSync(join(b.world.dir, org.file), text);
  const before = (await effects(b)).length;

  const run = await apply(b, env);
  // Before the fix: the defaults read as {}, every project a draft: exit 0, nothing paused.
  expect(run.code).toBe(1);
  expect(run.stdout + run.stderr).toContain(`${org.file}:4:3: error[campaign.yaml-tag]`);
  expect((await effects(b)).length).toBe(before);
});

test("a policy whose rules are an ordered map (`!!omap`) stops apply: never read as no rules, the send it forbids never made", async () => {
  const b = await bed(1, 2);
  // The schedules are at 10:00 in Chicago: outside the window the policy means to enforce.
  writeFileSync(
    join(b.world.dir, "campaignctl.policy.yaml"),
    'version: 1\nrules: !!omap\n  - send_window: {from: "11:00", to: "20:00"}\n',
  );
  const run = await apply(b, orgKeys(b));
  // Before the fix: the rules read as {}, both projects scheduled, exit 0.
  expect(run.code).toBe(1);
  expect(run.stdout + run.stderr).toContain("campaignctl.policy.yaml:3:3: error[policy.file-invalid]");
  expect(await effects(b)).toEqual([]);
});

test("an alias as a key (`&k a:` then `*k :`) stops apply: the second value is never sent past the first in silence", async () => {
  const b = await bed(1, 1);
  const org = b.world.orgs[0] as OrgWorldOrg;
  const p = org.projects[0] as OrgWorldOrg["projects"][number];
  const n = String(org.index).padStart(4, "0");
  // Every finding pointed at the first entry, which says paused; the data was the second's.
  const text = `version: 1
organization: ${org.name}
merge_defaults: {first_name: friend}
defaults:
  channel: 10dlc
  brand: ${org.name}
  campaign: GOTV 2026
  phone_numbers: ["+1503555${n}"]
  contact_lists: [Likely Voters]
  suppression_lists: [Do Not Text]
  message: "Hi {{first_name|friend}}, vote Tuesday. Reply STOP to opt out"
projects:
  &k ${p.address}:
    id: ${p.id}
    state: paused
  *k :
    id: ${p.id}
    name: GOTV 1
    state: scheduled
    schedule: {at: "2026-12-07T10:00:00-06:00", timezone: America/Chicago}
`;
  writeFileSync(join(b.world.dir, org.file), text);
  const run = await apply(b, orgKeys(b));
  // Before the fix: exit 0, and the project scheduled.
  expect(run.code).toBe(1);
  expect(run.stdout + run.stderr).toContain(`${org.file}:16:3: error[campaign.yaml-key]`);
  expect(await effects(b)).toEqual([]);
});
