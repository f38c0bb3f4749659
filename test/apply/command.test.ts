/** `campaignctl apply` in-process (captured terminal, virtual clock) against the sandbox. */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { validateApplyResult } from "../../src/report/apply-schema.js";
import { renderPlanJson } from "../../src/report/plan-json.js";
import { admin, PARENT_KEY } from "../sandbox/helpers.js";
import {
  bedsClosedAfterEach,
  effectCounts,
  effects,
  planFresh,
  requestLog,
  runApply,
  type TestBed,
} from "./helpers.js";

const openBed = bedsClosedAfterEach();

async function savePlan(b: TestBed): Promise<string> {
  const { plan: p } = await planFresh(b);
  writeFileSync(join(b.world.dir, "plan.json"), renderPlanJson(p));
  return "plan.json";
}

const posts = async (b: TestBed) => (await requestLog(b.sb)).filter((r) => r.method === "POST");

describe("apply with campaign files", () => {
  test("plans, applies, writes a journal; a second apply has nothing to do; the key appears nowhere", async () => {
    const bed = await openBed({ test: 2, schedule: 2, pause: 2 });
    const first = await runApply(bed, [bed.world.campaignFile], {
      autoApprove: true,
      junit: "apply.xml",
      markdown: "apply.md",
    });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("pause-1.pause");
    const journals = readdirSync(join(bed.world.dir, ".campaignctl/journal"));
    expect(journals).toHaveLength(1);
    const journal = readFileSync(join(bed.world.dir, ".campaignctl/journal", journals[0] ?? ""), "utf8");
    const lines = journal
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === "action-end")).toHaveLength(6);
    expect(
      lines.some((l) => l.type === "api" && l.event.type === "request-end" && l.event.status === 202),
    ).toBe(true);
    for (const text of [
      first.stdout,
      first.stderr,
      journal,
      readFileSync(join(bed.world.dir, "apply.xml"), "utf8"),
    ])
      expect(text).not.toContain(PARENT_KEY);

    const second = await runApply(bed, [bed.world.campaignFile], { autoApprove: true });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain("No changes");
    expect([...effectCounts(await effects(bed.sb)).values()].every((n) => n === 1)).toBe(true);
  });

  test("--json prints only the apply result document, valid against its schema", async () => {
    const bed = await openBed({ pause: 1 });
    const run = await runApply(bed, [bed.world.campaignFile], { autoApprove: true, json: true });
    expect(run.code).toBe(0);
    const checked = validateApplyResult(JSON.parse(run.stdout));
    expect(checked.ok, JSON.stringify(checked)).toBe(true);
    expect(run.stderr).toContain("Journal: .campaignctl/journal/");
  });

  test("without a terminal and without --auto-approve it refuses at once and sends nothing", async () => {
    const bed = await openBed({ test: 1 });
    const run = await runApply(bed, [bed.world.campaignFile], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("apply.needs-approval");
    expect(await posts(bed)).toHaveLength(0);
  });

  test("on a terminal only 'yes' approves", async () => {
    const bed = await openBed({ test: 1 });
    const no = await runApply(bed, [bed.world.campaignFile], {}, { tty: true, answer: "y" });
    expect(no.code).toBe(1);
    expect(no.stderr).toContain("Apply cancelled");
    expect(await posts(bed)).toHaveLength(0);
    const yes = await runApply(bed, [bed.world.campaignFile], {}, { tty: true, answer: "yes" });
    expect(yes.code).toBe(0);
    expect(await posts(bed)).toHaveLength(1);
  });
});

test("Ctrl-C during apply: in-flight requests finish, the rest is not started, exit 130", async () => {
  const bed = await openBed({ test: 6 });
  const run = await runApply(
    bed,
    [bed.world.campaignFile],
    { autoApprove: true, parallelism: 1, json: true },
    { interruptOnFirstPost: true },
  );
  expect(run.code).toBe(130);
  const result = JSON.parse(run.stdout);
  expect(result.interrupted).toBe(true);
  expect(result.summary).toMatchObject({ done: 1, not_started: 5 });
  expect(run.stderr).toContain("Interrupt received");
  expect((await effects(bed.sb)).filter((e) => e.kind === "test")).toHaveLength(1);
});

describe("apply PLANFILE", () => {
  test("a plan made before someone changed a project is refused whole, and nothing is sent", async () => {
    const bed = await openBed({ test: 2, schedule: 1 });
    const file = await savePlan(bed);
    const changed = bed.world.projects.find((x) => x.role === "schedule");
    await admin(bed.sb, "PATCH", `/projects/${changed?.id}`, { name: "Generated schedule-1" });
    await admin(bed.sb, "DELETE", "/requests");
    const run = await runApply(bed, [file], { json: true });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result.refused.map((d: { code: string }) => d.code)).toEqual(["apply.plan-stale"]);
    expect(result.refused[0].message).toContain("schedule-1");
    expect(await posts(bed)).toHaveLength(0);
  });

  test("a plan applied twice acts once: the second run reports it already applied, exit 0", async () => {
    const bed = await openBed({ test: 2, schedule: 2, pause: 2 });
    const file = await savePlan(bed);
    const first = await runApply(bed, [file], {});
    expect(first.code, first.stdout + first.stderr).toBe(0);
    await admin(bed.sb, "DELETE", "/requests");
    const second = await runApply(bed, [file], { json: true });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    const result = JSON.parse(second.stdout);
    expect(result.summary).toMatchObject({ done: 0, replayed: 6 });
    expect(result.actions.every((a: { reason: string }) => a.reason.startsWith("already applied: "))).toBe(
      true,
    );
    expect(await posts(bed)).toHaveLength(0);
    const counts = effectCounts(await effects(bed.sb));
    expect(counts.size).toBe(6);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  test("an edited campaign file refuses the plan, naming the file", async () => {
    const bed = await openBed({ test: 1 });
    const file = await savePlan(bed);
    const path = join(bed.world.dir, bed.world.campaignFile);
    writeFileSync(path, `${readFileSync(path, "utf8")}\n# edited\n`);
    await admin(bed.sb, "DELETE", "/requests");
    const run = await runApply(bed, [file], {});
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("apply.files-changed");
    expect(run.stdout).toContain("generated.yaml");
    expect(await posts(bed)).toHaveLength(0);
  });

  test("a plan of another format version is refused", async () => {
    const bed = await openBed({ test: 1 });
    writeFileSync(join(bed.world.dir, "old.json"), JSON.stringify({ format_version: 99 }));
    const run = await runApply(bed, ["old.json"], {});
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("report.plan-version");
  });
});
