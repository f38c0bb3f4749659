/**
 * The policy's budgets with keys per organization: a budget's spending is read with every key in
 * use, each on its own. One organization's statistics failing (its retries spent) makes the spending
 * of a budget covering it unknown, so its sends are held ("a cap that cannot be judged is never
 * taken as a pass"); before, the merged read left that organization's rows out and judged the others'
 * sends on a figure short of what was spent.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { bed, closeBeds, orgKeys, plan } from "./harness.js";

afterEach(closeBeds);

interface PlanBudget {
  readonly budget: string;
  readonly spent_cents: number | null;
  readonly held: readonly string[];
}

test("a budget over every organization: one organization's statistics failing holds its sends, spending unknown", async () => {
  const b = await bed(3, 1, (w) => `GET /projects/stats: status(500) org=${w.orgs[1]?.id}`);
  writeFileSync(
    join(b.world.dir, "campaign", "campaignctl.policy.yaml"),
    "version: 1\nrules:\n  budgets: [{usd: 1000, per: month}]\n",
  );
  const planned = await plan(b, orgKeys(b), { json: true });
  const doc = JSON.parse(planned.stdout) as { budgets: PlanBudget[] };
  const [adams, , clark] = b.world.orgs;
  expect(doc.budgets).toHaveLength(1);
  expect(doc.budgets[0]?.spent_cents).toBeNull();
  // The other organizations' sends are held (Baker's own are unreadable anyway).
  expect(doc.budgets[0]?.held).toEqual([adams?.projects[0]?.address, clark?.projects[0]?.address]);
  expect(planned.code).toBe(1);
});

test("a budget of another organization is still judged: the failing key does not see it", async () => {
  const b = await bed(3, 1, (w) => `GET /projects/stats: status(500) org=${w.orgs[1]?.id}`);
  const [adams] = b.world.orgs;
  writeFileSync(
    join(b.world.dir, "campaign", "campaignctl.policy.yaml"),
    `version: 1\nrules:\n  budgets: [{usd: 1000, per: month, organization: ${JSON.stringify(adams?.name)}}]\n`,
  );
  const planned = await plan(b, orgKeys(b), { json: true });
  const doc = JSON.parse(planned.stdout) as { budgets: PlanBudget[] };
  expect(doc.budgets[0]?.spent_cents).toBe(0);
  expect(doc.budgets[0]?.held).toEqual([]);
});

test("a key that could not be used at all (GET /organizations failing): a budget over every organization holds, spending unknown; another organization's budget is still judged", async () => {
  const b = await bed(3, 1, (w) => `GET /organizations: status(503) org=${w.orgs[1]?.id}`);
  const [adams, , clark] = b.world.orgs;
  const policy = join(b.world.dir, "campaign", "campaignctl.policy.yaml");
  writeFileSync(policy, "version: 1\nrules:\n  budgets: [{usd: 1000, per: month}]\n");
  const every = JSON.parse((await plan(b, orgKeys(b), { json: true })).stdout) as { budgets: PlanBudget[] };
  expect(every.budgets[0]?.spent_cents).toBeNull();
  expect(every.budgets[0]?.held).toEqual([adams?.projects[0]?.address, clark?.projects[0]?.address]);
  writeFileSync(
    policy,
    `version: 1\nrules:\n  budgets: [{usd: 1000, per: month, organization: ${JSON.stringify(adams?.name)}}]\n`,
  );
  const own = JSON.parse((await plan(b, orgKeys(b), { json: true })).stdout) as { budgets: PlanBudget[] };
  expect(own.budgets[0]?.spent_cents).toBe(0);
  expect(own.budgets[0]?.held).toEqual([]);
});

test("a budget whose own reads answered is judged, though another listing of the statistics failed for a key earlier in the run", async () => {
  // The four attempts of the second county's first statistics page of the plan's refresh fail;
  // the budget's own listings, read after, answer for every key.
  const b = await bed(3, 1, (w) => `GET /projects/stats: status(500) n=4 org=${w.orgs[1]?.id}`);
  writeFileSync(
    join(b.world.dir, "campaign", "campaignctl.policy.yaml"),
    "version: 1\nrules:\n  budgets: [{usd: 1000, per: month}]\n",
  );
  const planned = await plan(b, orgKeys(b), { json: true });
  const doc = JSON.parse(planned.stdout) as { budgets: PlanBudget[] };
  // Before, the refresh's failure was taken as the budget's: spending unknown, every send held.
  expect(doc.budgets[0]?.spent_cents).toBe(0);
  expect(doc.budgets[0]?.held).toEqual([]);
});
