/**
 * An organization the policy names that matches none the run's keys see, yet is a slip or a typo of
 * one: the rule would apply to none of its projects, in silence (a budget capping nothing). Over
 * real HTTP against the sandbox on loopback, with keys per organization.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { bed, closeBeds, orgKeys, plan } from "./harness.js";

afterEach(closeBeds);

interface PlanDocument {
  readonly diagnostics: readonly {
    severity: string;
    code: string;
    message: string;
    range?: { file: string };
  }[];
  readonly summary: { errors: number };
}

async function planWith(policy: string) {
  const b = await bed(2, 1);
  writeFileSync(join(b.world.dir, "campaign", "campaignctl.policy.yaml"), policy);
  const run = await plan(b, orgKeys(b), { json: true });
  return { b, run, doc: JSON.parse(run.stdout) as PlanDocument };
}

const unmatched = (doc: PlanDocument) =>
  doc.diagnostics.filter((d) => d.code === "policy.organization-unmatched");

test("a budget naming an organization in another case is an error at the policy's rule: the plan does not pass", async () => {
  const { b, run, doc } = await planWith(
    'version: 1\nrules:\n  budgets: [{usd: 0.01, per: month, organization: "adams county democrats"}]\n',
  );
  const adams = b.world.orgs[0]?.name;
  expect(unmatched(doc)).toEqual([
    expect.objectContaining({
      severity: "error",
      message: `the policy's budgets names the organization "adams county democrats", which differs from "${adams}" only in case or spacing: organizations match exactly, so the rule applies to none of its projects`,
      range: expect.objectContaining({ file: expect.stringMatching(/campaignctl\.policy\.yaml$/) }),
    }),
  ]);
  expect(run.code).toBe(1);
});

test("a suppression rule naming an organization one letter off is a warning with the name meant", async () => {
  const { b, doc } = await planWith(
    "version: 1\nrules:\n  require_suppression_lists:\n    organizations: {Adams County Democrat: [Do Not Text]}\n",
  );
  expect(unmatched(doc).map((d) => [d.severity, d.message])).toEqual([
    [
      "warning",
      `the policy's require_suppression_lists names the organization "Adams County Democrat", which no organization this run's keys see is named: the rule applies to none of its projects (did you mean "${b.world.orgs[0]?.name}"?)`,
    ],
  ]);
});

test("names as the API gives them, ids, and names far from any seen organization say nothing", async () => {
  const { b, doc } = await planWith(
    `version: 1\nrules:\n  budgets:\n    - {usd: 1000, per: month, organization: ${JSON.stringify(b0name())}}\n    - {usd: 1000, per: month, organization: "Statewide Coordinated Campaign"}\n`,
  );
  expect(unmatched(doc)).toEqual([]);
  expect(b.world.orgs[0]?.name).toBe(b0name());
});

/** The first county's name in the generated world (test/orgs/world.ts). */
function b0name(): string {
  return "Adams County Democrats";
}
