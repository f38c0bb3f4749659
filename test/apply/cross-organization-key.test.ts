/**
 * No second text through another key (issue 16): the API scopes idempotency per calling
 * organization, so an apply with the parent organization's key and one with the child's would each
 * send a child project's test. By default a key of another organization than the project's own
 * sends no test or schedule (plan shows them blocked, `apply.cross-organization-key`); a pause still
 * goes; `--allow-cross-organization-key` lets it send, with a warning. Counted from the sandbox's
 * own log of test messages.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { parse, stringify } from "yaml";
import { runPlanPipeline } from "../../cli/gather/plan-pipeline.js";
import { reconcile } from "../../src/apply/reconcile.js";
import { CHILD_KEY, CHILD_ORG } from "../sandbox/helpers.js";
import {
  bedsClosedAfterEach,
  checkApplyDocuments,
  session,
  type TestBed,
  testMessages,
  virtual,
} from "./helpers.js";

const openBed = bedsClosedAfterEach();

/** The bed's projects and everything they refer to moved to the child organization. */
async function childWorld(counts: Parameters<typeof openBed>[0]): Promise<TestBed> {
  const bed = await openBed(counts);
  const world = bed.sb.store.world;
  for (const id of bed.world.projects.map((p) => p.id)) {
    const project = world.projects[id];
    if (project !== undefined) project.organization_id = CHILD_ORG;
  }
  for (const table of [
    world.brands,
    world.phoneNumbers,
    world.contactLists,
    world.suppressionLists,
    world.tenDlcCampaigns,
  ])
    for (const record of Object.values(table ?? {}) as { organization_id?: string }[])
      if (record.organization_id !== undefined) record.organization_id = CHILD_ORG;
  const file = join(bed.world.dir, bed.world.campaignFile);
  const doc = parse(readFileSync(file, "utf8"));
  delete doc.organization;
  writeFileSync(file, stringify(doc));
  return bed;
}

/** Plans and applies the bed's file with `key`, optionally allowing a key of another organization. */
async function applyWith(bed: TestBed, key: string, allow: boolean) {
  const io = { ...bed.io, env: { ...bed.io.env, CAMPAIGNCTL_API_KEY: key } };
  const s = await session({ ...bed, io });
  const { clock, sleep } = virtual(bed.sb);
  try {
    const planned = await runPlanPipeline(
      {
        paths: [bed.world.campaignFile],
        targets: [],
        excludes: [],
        refresh: true,
        allowCrossOrganizationKey: allow,
      },
      s,
      io,
    );
    if (!planned.ok) throw new Error(planned.diagnostics.map((d) => `${d.code}: ${d.message}`).join("\n"));
    const events: Parameters<typeof checkApplyDocuments>[1][number][] = [];
    const result = await reconcile(
      { plan: planned.plan, live: planned.live, judge: planned.judge },
      s.client,
      {
        parallelism: 4,
        clock,
        sleep,
        waitForApproval: null,
        signal: new AbortController().signal,
        onEvent: (e) => events.push(e),
        toolVersion: "test",
      },
    );
    checkApplyDocuments(result, events);
    return { plan: planned.plan, result };
  } finally {
    await s.close();
  }
}

test("concurrent applies with the parent's and the child's key send each test once", async () => {
  const bed = await childWorld({ test: 3, pause: 1 });
  const [parent, child] = await Promise.all([
    applyWith(bed, bed.io.env.CAMPAIGNCTL_API_KEY ?? "", false),
    applyWith(bed, CHILD_KEY, false),
  ]);
  const sent = await testMessages(bed.sb);
  const perProject = new Map<string, number>();
  for (const m of sent) perProject.set(m.project_id, (perProject.get(m.project_id) ?? 0) + 1);
  // Two test contacts per project, each texted once: 3 projects, 6 texts (12 before the fix).
  expect(sent).toHaveLength(6);
  expect([...perProject.values()]).toEqual([2, 2, 2]);

  const tests = parent.plan.projects.filter((p) => p.address.startsWith("test-"));
  for (const p of tests) {
    expect(p.actions.map((a) => `${a.kind}:${a.status}`)).toEqual(["test:blocked"]);
    expect(p.actions[0]?.block?.codes).toEqual(["apply.cross-organization-key"]);
    expect(p.diagnostics.map((d) => `${d.severity} ${d.code}`)).toContain(
      "error apply.cross-organization-key",
    );
  }
  // A pause sends no text: it goes ahead with either key.
  const pause = parent.plan.projects.find((p) => p.address.startsWith("pause-"));
  expect(pause?.actions.map((a) => `${a.kind}:${a.status}`)).toEqual(["pause:planned"]);
  expect(child.result.summary.done).toBeGreaterThanOrEqual(3);
});

test("--allow-cross-organization-key sends with the parent's key, with a warning", async () => {
  const bed = await childWorld({ test: 1 });
  const run = await applyWith(bed, bed.io.env.CAMPAIGNCTL_API_KEY ?? "", true);
  const p = run.plan.projects[0];
  expect(p?.actions.map((a) => `${a.kind}:${a.status}`)).toEqual(["test:planned"]);
  expect(p?.diagnostics.map((d) => `${d.severity} ${d.code}`)).toContain(
    "warning apply.cross-organization-key",
  );
  expect(await testMessages(bed.sb)).toHaveLength(2);
});
