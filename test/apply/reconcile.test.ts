/**
 * Apply as a reconciliation loop (issue 9), against the sandbox over HTTP, effects asserted from the
 * sandbox's own logs. Each test names the item it reproduces.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { parse, stringify } from "yaml";
import { runPlanPipeline } from "../../cli/gather/plan-pipeline.js";
import { idempotencyKey } from "../../src/api/idempotency-key.js";
import { reconcile } from "../../src/apply/reconcile.js";
import type { ApplyResult } from "../../src/apply/types.js";
import { renderApplyJson } from "../../src/report/apply-json.js";
import { validateApplyResult } from "../../src/report/apply-schema.js";
import { admin } from "../sandbox/helpers.js";
import {
  applyLoop,
  bedsClosedAfterEach,
  cliApply,
  effectCounts,
  effects,
  planFresh,
  session,
  type TestBed,
  testMessages,
  virtual,
} from "./helpers.js";

const openBed = bedsClosedAfterEach();

const DAY = 86_400_000;

async function awaitingTest(b: TestBed): Promise<string[]> {
  return Object.values(b.sb.store.world.projects)
    .filter((p) => p.status === "awaiting_test")
    .map((p) => p.project_id);
}

async function approveAll(b: TestBed): Promise<void> {
  for (const id of await awaitingTest(b)) await admin(b.sb, "POST", `/projects/${id}/approve`);
}

async function converged(b: TestBed): Promise<number> {
  return (await planFresh(b)).plan.summary.planned;
}

test("item 6: approvals arrive while apply waits; schedules and `after:` chains go on in the same run", async () => {
  const bed = await openBed({});
  cpSync(join(process.cwd(), "examples"), join(bed.world.dir, "examples"), { recursive: true });
  const b = bed;
  let polls = 0;
  const run = await cliApply(b, ["examples"], { waitForApproval: 10 * 60_000, json: true }, async () => {
    polls++;
    await approveAll(b);
  });
  expect(run.code, run.stderr).toBe(0);
  expect(polls).toBeGreaterThan(0);
  const result = JSON.parse(run.stdout) as ApplyResult;
  for (const id of ["gotv-reminder.schedule", "gotv-followup.test", "gotv-followup.schedule"])
    expect(result.actions.find((a) => a.id === id)?.status, id).toBe("done");
  const log = await effects(b.sb);
  const followup = result.actions.find((a) => a.id === "gotv-followup.test")?.project_id ?? "";
  expect(effectCounts(log).get(`${followup}:test`)).toBe(1);
  expect(effectCounts(log).get(`${followup}:schedule`)).toBe(1);
  // The follow-up's test went out only after the reminder's schedule took effect.
  const seqOf = (project: string, kind: string) =>
    log.find((e) => e.project_id === project && e.kind === kind && e.changed)?.seq ?? -1;
  const reminder = result.actions.find((a) => a.id === "gotv-reminder.schedule")?.project_id ?? "";
  expect(seqOf(followup, "test")).toBeGreaterThan(seqOf(reminder, "schedule"));
  expect([...effectCounts(log).values()].every((n) => n === 1)).toBe(true);
}, 60_000);

test("a test approved at once gets its schedule in the same run", async () => {
  const bed = await openBed({ "test-then-schedule": 3 }, { autoApproveTests: true });
  const { result } = await applyLoop(bed);
  expect(result.summary).toMatchObject({ done: 6, deferred: 0, failed: 0 });
  const counts = effectCounts(await effects(bed.sb));
  for (const p of bed.world.projects) {
    expect(counts.get(`${p.id}:test`)).toBe(1);
    expect(counts.get(`${p.id}:schedule`)).toBe(1);
  }
  expect(await converged(bed)).toBe(0);
});

test("without --wait-for-approval, a schedule that waits on a person stays deferred", async () => {
  const bed = await openBed({ "test-then-schedule": 1 });
  const { result } = await applyLoop(bed);
  expect(result.summary).toMatchObject({ done: 1, deferred: 1 });
  expect(effectCounts(await effects(bed.sb)).get(`${bed.world.projects[0]?.id}:schedule`)).toBeUndefined();
});

test("item 2: a dashboard edit while awaiting approval blocks the schedule as drift", async () => {
  const bed = await openBed({ "test-then-schedule": 1 });
  const b = bed;
  const id = b.world.projects[0]?.id ?? "";
  const first = await cliApply(b, [b.world.campaignFile], {});
  expect(first.code, first.stderr).toBe(0);
  expect(b.sb.store.world.projects[id]?.status).toBe("awaiting_test");

  let moved = false;
  const run = await cliApply(
    b,
    [b.world.campaignFile],
    { waitForApproval: 10 * 60_000, json: true },
    async () => {
      if (moved) return;
      moved = true;
      await admin(b.sb, "PATCH", `/projects/${id}`, { message_text: "Edited in the dashboard: vote early!" });
      await admin(b.sb, "POST", `/projects/${id}/approve`);
    },
  );
  expect(moved).toBe(true);
  expect(run.code).toBe(1);
  const result = JSON.parse(run.stdout) as ApplyResult;
  const schedule = result.actions.find((a) => a.id.endsWith(".schedule"));
  expect(schedule?.status).toBe("blocked");
  expect(schedule?.reason).toContain("drifted");
  expect(effectCounts(await effects(b.sb)).get(`${id}:schedule`)).toBeUndefined();
  expect(b.sb.store.world.projects[id]?.status).toBe("ready");
});

test("item 3: a schedule whose time passed between judging and sending is not sent", async () => {
  const bed = await openBed({ schedule: 1 });
  const b = bed;
  const at = new Date(b.sb.clock.nowMs() + 25_000).toISOString();
  const file = join(b.world.dir, b.world.campaignFile);
  const doc = parse(readFileSync(file, "utf8"));
  for (const p of Object.values(doc.projects) as { schedule?: { at: string } }[])
    if (p.schedule) p.schedule.at = at;
  writeFileSync(file, stringify(doc));

  const planned = await planFresh(b);
  expect(planned.plan.summary.planned).toBe(1);
  // Time moves on between the round's judgement and its request (a slow limiter, a busy API):
  // the API's clock, as apply reads it, jumps 35 s right after the round judged the schedule.
  const { clock } = virtual(b.sb);
  let offset = 0;
  const { result } = await applyLoop(b, {
    clock: { now: () => clock.now() + offset },
    planned: {
      ...planned,
      judge: (projects, now) => {
        const out = planned.judge(projects, now);
        offset = 35_000;
        return out;
      },
    },
  });
  const schedule = result.actions[0];
  expect(schedule?.status).toBe("blocked");
  expect(schedule?.reason).toContain("plan.schedule-in-past");
  expect(effectCounts(await effects(b.sb)).get(`${b.world.projects[0]?.id}:schedule`)).toBeUndefined();
  expect(b.sb.store.world.projects[b.world.projects[0]?.id ?? ""]?.status).toBe("ready");
});

test("item 5: with the API's clock behind ours, cached details never make a test go out again", async () => {
  const bed = await openBed({ test: 2 });
  const b = bed;
  // Our clock 100 days ahead of the sandbox's: no stats window lists the projects.
  const ahead = () => b.sb.clock.nowMs() + 100 * DAY;
  const run = async () => {
    const s = await session(b);
    try {
      const planned = await runPlanPipeline(
        { paths: [b.world.campaignFile], targets: [], excludes: [], refresh: false },
        s,
        b.io,
        new Date(ahead()),
      );
      if (!planned.ok) throw new Error(planned.diagnostics.map((d) => d.message).join("; "));
      const { sleep } = virtual(b.sb);
      const result = await reconcile(
        { plan: planned.plan, live: planned.live, judge: planned.judge },
        s.client,
        {
          parallelism: 4,
          clock: { now: ahead },
          sleep,
          waitForApproval: null,
          signal: new AbortController().signal,
          onEvent: () => {},
          toolVersion: "test",
        },
      );
      return { planned: planned.plan, result };
    } finally {
      await s.close();
    }
  };
  const first = await run();
  expect(first.result.summary.done).toBe(2);
  const sent = (await testMessages(b.sb)).length;
  // Past the API's 24 h idempotency window: a replayed key would no longer protect us.
  await b.sb.clock.advance(25 * 60 * 60 * 1000);
  const second = await run();
  // The plan trusted its cache (the bug's premise) ...
  expect(second.planned.summary.planned).toBe(2);
  // ... but apply read each project by id before sending, and sent nothing.
  expect(second.result.actions.map((a) => a.status)).toEqual(["replayed", "replayed"]);
  expect(validateApplyResult(JSON.parse(renderApplyJson(second.result))).ok).toBe(true);
  expect(second.result.requests.by_endpoint["POST /projects/{id}/test"]).toBeUndefined();
  expect(second.result.basis_reads).toBeGreaterThanOrEqual(2);
  expect((await testMessages(b.sb)).length).toBe(sent);
  expect([...effectCounts(await effects(b.sb)).values()].every((n) => n === 1)).toBe(true);
});

test("item 7: an unreadable project the files ask something of fails the run, named in every report", async () => {
  const bed = await openBed({ pause: 1 });
  const b = bed;
  const file = join(b.world.dir, b.world.campaignFile);
  const doc = parse(readFileSync(file, "utf8"));
  doc.projects.ghost = {
    id: "9b000000-0000-4000-8000-999999999999",
    name: "Ghost",
    state: "paused",
    pause: { reason: "hold" },
  };
  writeFileSync(file, stringify(doc));
  const human = await cliApply(b, [b.world.campaignFile], { markdown: "apply.md", junit: "apply.xml" });
  expect(human.code).toBe(1);
  expect(human.stdout).toMatch(/could not be read[\s\S]*ghost/);
  expect(readFileSync(join(b.world.dir, "apply.md"), "utf8")).toContain("ghost");
  const junit = readFileSync(join(b.world.dir, "apply.xml"), "utf8");
  expect(junit).toContain('classname="ghost"');
  expect(junit).toContain('type="apply.project-unreadable"');
  // The readable project was still paused, once.
  expect(effectCounts(await effects(b.sb)).get(`${b.world.projects[0]?.id}:pause`)).toBe(1);

  const json = await cliApply(b, [b.world.campaignFile], { json: true });
  expect(json.code).toBe(1);
  const result = JSON.parse(json.stdout) as ApplyResult;
  expect(result.unreadable.map((u) => u.address)).toEqual(["ghost"]);
  expect(validateApplyResult(result).ok).toBe(true);
});

test("item 8: an outcome still unknown at the end is `unknown` (re-run is safe), and a re-run acts once", async () => {
  const bed = await openBed({ test: 1 });
  const b = bed;
  await admin(b.sb, "POST", "/faults", { spec: "POST /projects/{id}/test: status(500) p=1" });
  const run = await cliApply(b, [b.world.campaignFile], {});
  expect(run.code).toBe(1);
  expect(run.stdout).toContain("unknown");
  expect(run.stdout).toContain("re-run apply: it is safe");
  expect(run.stdout).not.toContain("did not take effect after");
  // The progress on stderr (no terminal: one line per event) counts the unknown outcome too.
  expect(run.stderr).toMatch(
    /\+\S+ apply finished: 0 done, 0 replayed, 0 failed, 0 skipped, 0 blocked, 0 deferred, 0 not started, 1 unknown\n/,
  );
  const json = JSON.parse((await cliApply(b, [b.world.campaignFile], { json: true })).stdout) as ApplyResult;
  expect(json.actions.map((a) => a.status)).toEqual(["unknown"]);
  expect(validateApplyResult(json).ok).toBe(true);
  await admin(b.sb, "DELETE", "/faults");
  const again = await cliApply(b, [b.world.campaignFile], {});
  expect(again.code, again.stdout).toBe(0);
  expect(effectCounts(await effects(b.sb)).get(`${b.world.projects[0]?.id}:test`)).toBe(1);
});

test("confirming the basis costs at most one request per 50 actions when nothing changed", async () => {
  const bed = await openBed({ pause: 120 });
  const { result } = await applyLoop(bed);
  expect(result.summary.done).toBe(120);
  expect(result.basis_reads).toBeLessThanOrEqual(Math.ceil(120 / 50));
  expect(result.requests.by_endpoint["GET /projects/{id}"]).toBeUndefined();
}, 60_000);

test("item 8: keys come from the project's own organization; a pause with another organization's key goes ahead", async () => {
  const bed = await openBed({ pause: 1 });
  const b = bed;
  const id = b.world.projects[0]?.id ?? "";
  const child = "0b6f3c1e-5d2a-4c41-9a8e-2f1d7c9e0a02";
  const project = b.sb.store.world.projects[id];
  if (project === undefined) throw new Error("no project");
  project.organization_id = child;
  const file = join(b.world.dir, b.world.campaignFile);
  const doc = parse(readFileSync(file, "utf8"));
  delete doc.organization;
  writeFileSync(file, stringify(doc));
  const planned = await planFresh(b);
  const p = planned.plan.projects[0];
  const pause = p?.actions[0];
  expect(pause?.status).toBe("planned");
  // A pause sends no text, so the key's organization does not hold it (tests and schedules: see
  // cross-organization-key.test.ts).
  expect(p?.diagnostics.map((d) => d.code)).not.toContain("apply.cross-organization-key");
  expect(pause?.request.idempotency_key).toBe(
    idempotencyKey({
      org: child,
      project_id: id,
      action: "pause",
      body: pause?.request.body,
      based_on: p?.live?.updated_at ?? null,
    }),
  );
});

test("item 7: a project unreadable under faults (GET 500) fails the run instead of exiting 0", async () => {
  const bed = await openBed({ pause: 2 });
  const b = bed;
  await admin(b.sb, "POST", "/faults", { spec: "GET /projects/{id}: status(500) p=1" });
  const run = await cliApply(b, [b.world.campaignFile], { json: true, junit: "apply.xml" });
  expect(run.code).toBe(1);
  const result = JSON.parse(run.stdout) as ApplyResult;
  expect(result.unreadable.map((u) => u.address).sort()).toEqual(["pause-1", "pause-2"]);
  expect(readFileSync(join(b.world.dir, "apply.xml"), "utf8")).toContain('classname="pause-1" name="read"');
  // Nothing was paused on a basis that could not be read.
  expect(effectCounts(await effects(b.sb)).size).toBe(0);
});

test("item 2, saved plan: a deferred action goes out only if, re-judged when runnable, it is the one reviewed", async () => {
  const bed = await openBed({ "test-then-schedule": 2 });
  const b = bed;
  const [edited, kept] = b.world.projects;
  await applyLoop(b); // both tests sent; both projects await approval
  const reviewed = (await planFresh(b)).plan; // the saved plan: two deferred schedules
  expect(reviewed.summary.deferred).toBe(2);
  await admin(b.sb, "PATCH", `/projects/${edited?.id}`, { message_text: "Edited after review" });
  for (const p of [edited, kept]) await admin(b.sb, "POST", `/projects/${p?.id}/approve`);
  const { result } = await applyLoop(b, { reviewed });
  const status = (p: typeof edited) => result.actions.find((a) => a.id === `${p?.address}.schedule`)?.status;
  expect(status(edited)).toBe("blocked");
  expect(status(kept)).toBe("done");
  const counts = effectCounts(await effects(b.sb));
  expect(counts.get(`${edited?.id}:schedule`)).toBeUndefined();
  expect(counts.get(`${kept?.id}:schedule`)).toBe(1);
});
