/**
 * `apply` with keys per organization and a budget, over real HTTP against the sandbox on loopback:
 * the budget's own read of the statistics failing for a key (its retries spent) leaves that budget's
 * spending unknown, and nothing else: the key's organization, read whole by the plan, is not failed
 * for the rest of the run (its sends, which no budget covers, go).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { admin } from "../sandbox/helpers.js";
import { adopt, apply, closeBeds, orgKeys } from "./harness.js";
import { buildOrgWorld } from "./world.js";

afterEach(closeBeds);

interface Action {
  readonly address: string;
  readonly status: string;
}

test("apply: a budget's read failing for another organization's key leaves that organization's sends to go", async () => {
  const world = buildOrgWorld(2, 1);
  const [adams, baker] = world.orgs;
  if (adams === undefined || baker === undefined) throw new Error("world");
  // With this seed the rule passes Baker's first statistics read (the plan's refresh) and fails the
  // four attempts of the next (the budget's month), then passes.
  const b = adopt({
    world,
    sb: await startSandbox({
      fixture: world.fixture,
      rateLimits: false,
      seed: 35,
      faults: `GET /projects/stats: status(500) p=0.8 org=${baker.id}`,
    }),
  });
  writeFileSync(
    join(b.world.dir, "campaign", "campaignctl.policy.yaml"),
    `version: 1\nrules:\n  budgets: [{usd: 1000, per: month, organization: ${JSON.stringify(adams.name)}}]\n`,
  );
  const run = await apply(b, orgKeys(b), { json: true });
  const log = (await admin(b.sb, "GET", "/requests")).body.data.requests as {
    method: string;
    path: string;
    status: number;
    key_organization_id: string | null;
  }[];
  const stats = log.filter((r) => r.path === "/projects/stats" && r.key_organization_id === baker.id);
  expect(stats.slice(0, 5).map((r) => r.status)).toEqual([200, 500, 500, 500, 500]);
  const actions = (JSON.parse(run.stdout) as { actions: Action[] }).actions;
  // Before, the budget's failed read failed Baker's organization for the rest of the run: its
  // schedule, planned and not covered by the budget, was sent nowhere (and said "unknown").
  expect(actions.map((a) => [a.address, a.status])).toEqual([
    [adams.projects[0]?.address, "done"],
    [baker.projects[0]?.address, "done"],
  ]);
  expect(
    log.some((r) => r.method === "POST" && r.path === `/projects/${baker.projects[0]?.id}/schedule`),
  ).toBe(true);
  expect(run.code).toBe(0);
});
