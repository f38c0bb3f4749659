/**
 * `apply PLANFILE` end to end (in-process CLI, the sandbox over HTTP on loopback): a saved plan is
 * the reviewed expectation. Every tampering of issue 9 item 1 is refused whole, exit 1, with nothing
 * sent (asserted from the sandbox's logs); the plan file is recognised by its content; the base URL
 * and the key's scope are checked before any request; keys are the same in both modes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { runPlanPipeline } from "../../cli/gather/plan-pipeline.js";
import { openSession } from "../../cli/gather/session.js";
import type { Sleep } from "../../src/api/index.js";
import type { Plan } from "../../src/plan/types.js";
import { renderPlanJson } from "../../src/report/plan-json.js";
import { admin, CHILD_KEY } from "../sandbox/helpers.js";
import {
  bedsClosedAfterEach,
  effects,
  planFresh,
  requestLog,
  runApply,
  type TestBed,
  testBed,
  testMessages,
  virtual,
} from "./helpers.js";
import { SCHEDULE_AT } from "./world.js";

const bedOf = bedsClosedAfterEach();

/** Plans the bed's campaign file and saves the plan document as `name`, after `edit`. */
async function savePlan(b: TestBed, name = "plan.json", edit: (doc: Plan) => Plan = (d) => d): Promise<Plan> {
  const { plan: p } = await planFresh(b);
  const doc = JSON.parse(renderPlanJson(p)) as Plan;
  writeFileSync(join(b.world.dir, name), `${JSON.stringify(edit(doc), null, 2)}\n`);
  return doc;
}

/** Forgets the requests so far: the sandbox's log then holds only what apply sends. */
const forgetRequests = (b: TestBed) => admin(b.sb, "DELETE", "/requests");
const posts = async (b: TestBed) => (await requestLog(b.sb)).filter((r) => r.method === "POST");
const sends = async (b: TestBed) =>
  (await effects(b.sb)).filter((e) => e.kind === "test" || e.kind === "schedule" || e.kind === "pause");

/** Every action of the plan document, to edit in place. */
type MutableAction = { id: string; status: string; project_id: string; request: Record<string, unknown> };
function actionOf(doc: Plan, id: string): MutableAction {
  const found = doc.projects.flatMap((p) => p.actions).find((a) => a.id === id);
  if (found === undefined) throw new Error(`no action ${id}`);
  return found as unknown as MutableAction;
}
type TestBody = { test_contacts: { phone: string; merge_values?: Record<string, string> }[] };
const testBody = (doc: Plan, id: string) => actionOf(doc, id).request.body as TestBody;

describe("an edited saved plan is refused whole: exit 1, nothing sent (issue 9 item 1)", () => {
  const tamperings: readonly {
    readonly name: string;
    readonly edit: (doc: Plan) => void;
    readonly code: string;
    readonly names: readonly string[];
    /** Refused before any request: the sandbox's log stays empty (else: no POST). */
    readonly offline?: true;
  }[] = [
    {
      name: "a changed test number",
      edit: (doc) => {
        const first = testBody(doc, "test-1.test").test_contacts[0];
        if (first) first.phone = "+15035550199";
      },
      code: "apply.plan-differs",
      names: ["test-1.test", "request.body.test_contacts[0].phone", "+15035550199", "+15035550150"],
    },
    {
      name: "an added contact",
      edit: (doc) => {
        testBody(doc, "test-1.test").test_contacts.push({ phone: "+15035550177" });
      },
      code: "apply.plan-differs",
      names: ["test-1.test", "request.body.test_contacts[2]", "+15035550177"],
    },
    {
      name: "a changed merge value",
      edit: (doc) => {
        const first = testBody(doc, "test-1.test").test_contacts[0];
        if (first) first.merge_values = { first_name: "Mallory" };
      },
      code: "apply.plan-differs",
      names: ["test-1.test", "merge_values.first_name", "Mallory", "Maria"],
    },
    {
      name: "a test retargeted to another project",
      edit: (doc) => {
        const other = doc.projects.find((p) => p.address === "test-2")?.project_id ?? "";
        actionOf(doc, "test-1.test").request.path = `/projects/${other}/test`;
      },
      code: "apply.plan-differs",
      names: ["test-1.test", "request.path"],
    },
    {
      name: "a deferred schedule flipped to planned",
      edit: (doc) => {
        const schedule = actionOf(doc, "test-then-schedule-1.schedule") as MutableAction &
          Record<string, unknown>;
        schedule.status = "planned";
        schedule.request.idempotency_key = `cc1-${"A".repeat(43)}`;
        delete schedule.waits_for;
      },
      code: "apply.plan-differs",
      names: ["test-then-schedule-1.schedule", "status", "saved: planned; fresh: deferred"],
    },
    {
      name: "a scheduled_at moved into the past",
      edit: (doc) => {
        const body = actionOf(doc, "schedule-1.schedule").request.body as Record<string, unknown>;
        body.scheduled_at = "2026-11-01T10:00:00-06:00";
      },
      code: "apply.plan-differs",
      names: ["schedule-1.schedule", "request.body.scheduled_at", "2026-11-01T10:00:00-06:00"],
    },
    {
      name: '"files": []',
      edit: (doc) => {
        (doc as unknown as { files: unknown[] }).files = [];
      },
      code: "apply.plan-no-files",
      names: [
        "plan.json names no campaign files, so it cannot be re-derived and checked before anything is sent",
      ],
      offline: true,
    },
    {
      name: "a file's sha256 edited (as if the file had changed since)",
      edit: (doc) => {
        const [file] = doc.files as { path: string; sha256: string; kind: string }[];
        if (file) file.sha256 = "b".repeat(64);
      },
      code: "apply.files-changed",
      names: ["changed since the plan was made (sha256 bbbbbbbbbbbb in the plan, "],
      offline: true,
    },
    {
      name: "a project said to come from a file the plan does not list",
      edit: (doc) => {
        const first = doc.projects[0] as { file: string } | undefined;
        if (first) first.file = "elsewhere.yaml";
      },
      code: "apply.plan-no-files",
      names: ["comes from elsewhere.yaml, which is not among the plan's files"],
      offline: true,
    },
  ];

  /**
   * One world and one plan for every tampering: a refused plan sends nothing (each case asserts it
   * from the sandbox's logs, which are then still empty of POSTs, effects and test messages), so the
   * world each case meets is the one the plan was made from. Each case applies its own edited copy.
   */
  let shared: Promise<{ readonly bed: TestBed; readonly doc: string }> | undefined;
  afterAll(async () => {
    if (shared !== undefined) await (await shared).bed.close();
  });
  const sharedBed = () => {
    shared ??= (async () => {
      const bed = await testBed({ test: 2, schedule: 1, "test-then-schedule": 1 });
      return { bed, doc: JSON.stringify(await savePlan(bed, "untouched.json")) };
    })();
    return shared;
  };

  test.each(tamperings)("$name", async ({ edit, code, names, offline }) => {
    const { bed: b, doc: untouched } = await sharedBed();
    const doc = JSON.parse(untouched) as Plan;
    edit(doc);
    writeFileSync(join(b.world.dir, "plan.json"), `${JSON.stringify(doc, null, 2)}\n`);
    await forgetRequests(b);
    const run = await runApply(b, ["plan.json"], { json: true });
    expect(run.code, run.stderr).toBe(1);
    const result = JSON.parse(run.stdout);
    const refused = result.refused as { code: string; message: string }[];
    if (offline) expect(refused.map((d) => d.code)).toEqual([code]);
    else expect(refused.map((d) => d.code)).toContain(code);
    const text = refused.map((d) => d.message).join("\n");
    for (const n of names) expect(text).toContain(n);
    if (offline) expect(await requestLog(b.sb)).toHaveLength(0);
    expect(await posts(b)).toHaveLength(0);
    expect(await sends(b)).toHaveLength(0);
    expect(await testMessages(b.sb)).toHaveLength(0);
  });

  test("the untouched plan applies (the same files, the same world): every action once", async () => {
    const b = await bedOf({ test: 2, schedule: 1, "test-then-schedule": 1 });
    await savePlan(b);
    const run = await runApply(b, ["plan.json"]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toContain("made again from its files and fresh live state, it is the same plan");
    const kinds = (await sends(b)).filter((e) => e.changed).map((e) => e.kind);
    expect(kinds.sort()).toEqual(["schedule", "test", "test", "test"]);
    expect(await testMessages(b.sb)).toHaveLength(6);
  });
});

test("the clock is re-checked: a schedule 25 s ahead when planned, applied 35 s later, is refused (issue 9 item 3)", async () => {
  const b = await bedOf({ schedule: 1 });
  const at = new Date(b.sb.clock.nowMs() + 25_000 - 6 * 3_600_000).toISOString().slice(0, 19);
  const path = join(b.world.dir, b.world.campaignFile);
  writeFileSync(path, readFileSync(path, "utf8").replaceAll(SCHEDULE_AT, `${at}-06:00`));
  const saved = await savePlan(b);
  expect(actionOf(saved, "schedule-1.schedule").status).toBe("planned");
  await b.sb.clock.advance(35_000);
  const run = await runApply(b, ["plan.json"], { json: true });
  expect(run.code).toBe(1);
  const refused = JSON.parse(run.stdout).refused as { code: string; message: string }[];
  expect(refused.map((d) => d.message).join("\n")).toContain(
    "schedule-1.schedule: status differs (saved: planned; fresh: blocked",
  );
  expect(await sends(b)).toHaveLength(0);
});

describe("the plan file is recognised by its content", () => {
  test("`apply tfplan` (no .json) applies the saved plan", async () => {
    const b = await bedOf({ test: 1 });
    await savePlan(b, "tfplan");
    const run = await runApply(b, ["tfplan"]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toContain("Applying the saved plan tfplan");
    expect((await sends(b)).map((e) => e.kind)).toEqual(["test"]);
  });

  test("a saved plan with campaign files is a clear error, before any request", async () => {
    const b = await bedOf({ test: 1 });
    await savePlan(b, "tfplan");
    await forgetRequests(b);
    const run = await runApply(b, ["tfplan", b.world.campaignFile]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("apply.plan-mixed-with-files");
    expect(run.stderr).toContain("tfplan is a saved plan");
    expect(await requestLog(b.sb)).toHaveLength(0);
  });
});

describe("base URL and key scope are checked before any request (issue 9 item 8)", () => {
  test("a plan made on --sandbox, applied against another API: refused with zero requests there", async () => {
    const b = await bedOf({ test: 2 });
    // The plan is made against the embedded sandbox (same world); `b` stands in for production.
    const opened = await openSession({ sandbox: true }, b.io, {
      sandboxOptions: { fixture: b.world.fixture, statePath: join(b.world.dir, ".sbx/state.json") },
    });
    if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join("; "));
    const made = await runPlanPipeline(
      { paths: [b.world.campaignFile], targets: [], excludes: [], refresh: true },
      opened.session,
      b.io,
    );
    await opened.session.close();
    if (!made.ok) throw new Error(made.diagnostics.map((d) => d.message).join("; "));
    expect(made.plan.base_url).toBe("embedded-sandbox:default");
    writeFileSync(join(b.world.dir, "plan.json"), renderPlanJson(made.plan));
    await forgetRequests(b);
    const run = await runApply(b, ["plan.json"], { json: true });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result.refused.map((d: { code: string }) => d.code)).toEqual(["apply.base-url-mismatch"]);
    expect(result.refused[0].message).toContain(
      "the plan was made against embedded-sandbox:default, this apply talks to http://",
    );
    expect(await requestLog(b.sb)).toHaveLength(0);
  });

  test("a key that cannot see the plan's organization: refused after GET /organizations alone", async () => {
    const b = await bedOf({ test: 2 });
    await savePlan(b);
    await forgetRequests(b);
    const run = await runApply(b, ["plan.json"], { json: true }, { env: { CAMPAIGNCTL_API_KEY: CHILD_KEY } });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result.refused.map((d: { code: string }) => d.code)).toEqual(["apply.key-scope"]);
    expect((await requestLog(b.sb)).map((r) => `${r.method} ${r.route}`)).toEqual(["GET /organizations"]);
    expect(run.stdout + run.stderr).not.toContain(CHILD_KEY);
  });
});

describe("a deferred action of a saved plan goes out only as reviewed (issue 9 item 2)", () => {
  test("edited in the dashboard, then approved: nothing is scheduled, exit 1, the report names the drift", async () => {
    const b = await bedOf({ "test-then-schedule": 1 });
    const id = b.world.projects[0]?.id ?? "";
    await admin(b.sb, "PATCH", `/projects/${id}`, { status: "awaiting_test" });
    const saved = await savePlan(b);
    expect(actionOf(saved, "test-then-schedule-1.schedule").status).toBe("deferred");
    const edited = await admin(b.sb, "PATCH", `/projects/${id}`, {
      message_text: "Unreviewed text. Reply STOP to opt out",
    });
    expect(edited.status).toBe(200);
    expect((await admin(b.sb, "POST", `/projects/${id}/approve`)).status).toBe(200);
    const run = await runApply(b, ["plan.json"], { waitForApproval: 60_000 });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("test-then-schedule-1.schedule");
    expect(run.stdout).toContain("drifted from the file (message)");
    expect(await sends(b)).toHaveLength(0);
    expect((await admin(b.sb, "GET", `/projects/${id}`)).body.data.status).toBe("ready");
  });

  test("edited in the dashboard and approved while apply waits: nothing is scheduled, exit 1, drift named", async () => {
    const b = await bedOf({ "test-then-schedule": 1 });
    const id = b.world.projects[0]?.id ?? "";
    await admin(b.sb, "PATCH", `/projects/${id}`, { status: "awaiting_test" });
    await savePlan(b);
    const v = virtual(b.sb);
    let edited = false;
    // The first wait of the run (the approval poll) is when a person edits the message and approves.
    const sleep: Sleep = async (ms) => {
      if (!edited) {
        edited = true;
        await admin(b.sb, "PATCH", `/projects/${id}`, {
          message_text: "Unreviewed text. Reply STOP to opt out",
        });
        await admin(b.sb, "POST", `/projects/${id}/approve`);
      }
      await v.sleep(ms);
    };
    const run = await runApply(b, ["plan.json"], { waitForApproval: 60_000 }, { sleep });
    expect(edited).toBe(true);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("test-then-schedule-1.schedule");
    expect(run.stdout).toContain("drifted from the file (message)");
    expect(await sends(b)).toHaveLength(0);
    expect((await admin(b.sb, "GET", `/projects/${id}`)).body.data.status).toBe("ready");
  });

  test("approved unedited while apply waits: the reviewed schedule goes out once", async () => {
    const b = await bedOf({ "test-then-schedule": 1 });
    const id = b.world.projects[0]?.id ?? "";
    await admin(b.sb, "PATCH", `/projects/${id}`, { status: "awaiting_test" });
    await savePlan(b);
    const v = virtual(b.sb);
    let approved = false;
    const sleep: Sleep = async (ms) => {
      if (!approved) {
        approved = true;
        await admin(b.sb, "POST", `/projects/${id}/approve`);
      }
      await v.sleep(ms);
    };
    const run = await runApply(b, ["plan.json"], { waitForApproval: 60_000 }, { sleep });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect((await sends(b)).map((e) => e.kind)).toEqual(["schedule"]);
  });
});

test("a saved plan's schedule that waits for its test: approved at once (as with --sandbox), both go out in one run", async () => {
  const b = await bedOf({ "test-then-schedule": 1 }, { autoApproveTests: true });
  const saved = await savePlan(b);
  expect(actionOf(saved, "test-then-schedule-1.schedule").status).toBe("deferred");
  const run = await runApply(b, ["plan.json"]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect((await sends(b)).map((e) => e.kind)).toEqual(["test", "schedule"]);
});

describe("idempotency keys are derived the same way in both modes", () => {
  test("a saved-plan apply and a fresh apply of the same world send the same keys", async () => {
    const counts = { test: 1, schedule: 1, pause: 1 } as const;
    const viaPlan = await bedOf(counts);
    await savePlan(viaPlan);
    expect((await runApply(viaPlan, ["plan.json"])).code).toBe(0);
    const viaFiles = await bedOf(counts);
    expect((await runApply(viaFiles, [viaFiles.world.campaignFile], { autoApprove: true })).code).toBe(0);
    const keys = async (b: TestBed) =>
      (await sends(b))
        .map((e) => `${e.project_id} ${e.kind} ${e.idempotency_key}`)
        .sort()
        .join("\n");
    const saved = await keys(viaPlan);
    expect(saved.split("\n")).toHaveLength(3);
    expect(saved).not.toContain("null");
    expect(await keys(viaFiles)).toBe(saved);
  });
});

describe("the saved plan's live updated_at is compared as an instant", () => {
  /** Rewrites every project's saved `live.updated_at` as `write` gives it. */
  const rewrite = (write: (ms: number) => string) => (doc: Plan) => {
    for (const p of doc.projects)
      if (p.live !== null)
        (p.live as { updated_at: string }).updated_at = write(Date.parse(p.live.updated_at));
    return doc;
  };

  test("the same instants written at -06:00 without milliseconds: the plan applies, every action once", async () => {
    const b = await bedOf({ test: 1, schedule: 1 });
    const saved = await savePlan(
      b,
      "plan.json",
      rewrite((ms) => `${new Date(ms - 6 * 3_600_000).toISOString().slice(0, 19)}-06:00`),
    );
    expect(saved.projects.every((p) => p.live?.updated_at.endsWith("-06:00"))).toBe(true);
    const run = await runApply(b, ["plan.json"]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toContain("it is the same plan");
    expect(
      (await sends(b))
        .filter((e) => e.changed)
        .map((e) => e.kind)
        .sort(),
    ).toEqual(["schedule", "test"]);
  });

  test("one millisecond earlier: refused whole as stale, the values shown as written, nothing sent", async () => {
    const b = await bedOf({ test: 1 });
    let live = "";
    const saved = await savePlan(b, "plan.json", (doc) => {
      live = doc.projects[0]?.live?.updated_at ?? "";
      return rewrite((ms) => new Date(ms - 1).toISOString().replace("Z", "+00:00"))(doc);
    });
    const earlier = saved.projects[0]?.live?.updated_at ?? "";
    expect(Date.parse(live) - Date.parse(earlier)).toBe(1);
    await forgetRequests(b);
    const run = await runApply(b, ["plan.json"], { json: true });
    expect(run.code).toBe(1);
    const refused = JSON.parse(run.stdout).refused as { code: string; message: string }[];
    expect(refused.map((d) => d.code)).toContain("apply.plan-stale");
    expect(refused.map((d) => d.message).join("\n")).toContain(`updated_at ${earlier} -> ${live}`);
    expect(await posts(b)).toHaveLength(0);
    expect(await sends(b)).toHaveLength(0);
  });
});
