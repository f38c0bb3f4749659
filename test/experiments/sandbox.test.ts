/**
 * Experiments against the sandbox on its virtual clock (issue 38 point 3, acceptance): two arms
 * whose simulated reply rates are 4 % and 8 %. Before the minimum sample `status` names no winner
 * and `plan` defers the holdout's schedule; once the samples are enough the 8 % arm wins; the
 * holdout, whose live text is the losing arm's, is then blocked as drift, and once it carries the
 * winner's wording its schedule is planned, and `apply` sends it, once.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { Plan } from "../../src/plan/types.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { runCli } from "../helpers/run-cli.js";
import { admin, PARENT_KEY } from "../sandbox/helpers.js";
import { scheduleProject } from "../sandbox/sending-fixture.js";
import {
  ARM_A,
  ARM_B,
  campaignDir,
  campaignText,
  experimentFixture,
  HOLDOUT,
  SEND_AT,
  TEXT_B,
} from "./world.js";

let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs ?? []).toEqual([]);
  await sb?.close();
  sb = undefined;
});

async function world(): Promise<SandboxHandle> {
  sb = await startSandbox({ fixture: experimentFixture(), rateLimits: false, timeScale: 0 });
  const patched = await admin(sb, "PATCH", "/simulation", {
    messages_per_batch: 100,
    batch_interval_ms: 1000,
    failure_rate: 0.02,
    reply_rate: 0,
    project_reply_rates: { [ARM_A]: 0.04, [ARM_B]: 0.08 },
    opt_out_share: 0,
    reply_delay_min_ms: 1000,
    reply_delay_max_ms: 60_000,
  });
  expect(patched.status).toBe(200);
  await scheduleProject(sb, ARM_A, SEND_AT);
  await scheduleProject(sb, ARM_B, SEND_AT);
  return sb;
}

const cli = (s: SandboxHandle, dir: string, argv: readonly string[]) =>
  runCli(argv, {
    cwd: dir,
    env: { CAMPAIGNCTL_API_KEY: PARENT_KEY, CAMPAIGNCTL_BASE_URL: s.baseUrl },
    clock: () => s.clock.nowMs(),
  });

// biome-ignore lint/suspicious/noExplicitAny: the documents were checked against their schemas by runCli
type Json = any;

async function verdictOf(s: SandboxHandle, dir: string): Promise<Json> {
  const run = await cli(s, dir, ["status", "--json", "--no-estimate"]);
  expect(run.stderr).not.toContain("error");
  return JSON.parse(run.stdout).experiments[0];
}

async function holdoutPlan(s: SandboxHandle, dir: string): Promise<Plan["projects"][number]> {
  const run = await cli(s, dir, ["plan", "--json"]);
  const plan = JSON.parse(run.stdout) as Plan;
  const rest = plan.projects.find((p) => p.address === "early-vote-rest");
  if (rest === undefined) throw new Error(run.stdout + run.stderr);
  return rest;
}

const advanceTo = async (s: SandboxHandle, iso: string) => {
  const r = await admin(s, "POST", "/clock/set", { at: iso });
  expect(r.status).toBe(200);
};

describe("an experiment of 4 % against 8 % on the sandbox", () => {
  test("undecided before the minimum sample, the 8 % arm wins after it; the holdout deferred, then drift, then planned and sent once", async () => {
    const s = await world();
    const dir = campaignDir(campaignText());

    // Before any send: nothing to compare; the holdout waits for the verdict.
    const first = await verdictOf(s, dir);
    expect(first.verdict).toMatchObject({ kind: "undecided", more_per_arm: 1500 });
    const waiting = await holdoutPlan(s, dir);
    expect(waiting.actions.map((a) => `${a.kind}:${a.status}`)).toEqual(["schedule:deferred"]);
    expect(waiting.actions[0]?.waits_for).toContain("the verdict of experiment early-vote-wording");
    expect(waiting.diagnostics.map((d) => d.code)).toContain("experiment.holdout-deferred");

    // Part way (about 800 delivered per arm): B leads, not decided.
    await advanceTo(s, "2026-12-01T15:00:18.000Z");
    const partway = await verdictOf(s, dir);
    expect(partway.verdict.kind).toBe("undecided");
    expect(partway.verdict.words).toMatch(
      /^early-vote-b leads, not yet decided: about [\d,]+ more deliveries per arm$/,
    );
    expect(partway.arms.every((a: Json) => a.trials > 0 && a.trials < 1500)).toBe(true);
    expect((await holdoutPlan(s, dir)).actions.map((a) => a.status)).toEqual(["deferred"]);

    // Every message delivered and replied: B wins.
    await advanceTo(s, "2026-12-01T16:00:00.000Z");
    const decided = await verdictOf(s, dir);
    expect(decided.arms.map((a: Json) => a.trials).every((n: number) => n >= 1500)).toBe(true);
    expect(decided.verdict).toMatchObject({
      kind: "wins",
      leader: "early-vote-b",
      words: "early-vote-b wins (p < 0.05)",
    });

    // The same section in the Markdown status for a pull request.
    const markdown = await cli(s, dir, ["status", "--no-estimate", "--markdown", "status.md"]);
    expect(markdown.code).toBe(0);
    const md = readFileSync(join(dir, "status.md"), "utf8");
    expect(md).toContain("### Experiments");
    expect(md).toContain("| early-vote-b | 8.0% | 6.8% to 9.5% | 126 of 1,566 |");

    // The same verdict from the results store (recorded now, read without the API).
    expect((await cli(s, dir, ["results", "record", "--json"])).code).toBe(0);
    const stored = await cli(s, dir, ["results", "campaign.yaml", "--json"]);
    expect(JSON.parse(stored.stdout).experiments[0]).toEqual(decided);
    const table = await cli(s, dir, ["results", "campaign.yaml"]);
    expect(table.stdout).toContain("early-vote-wording: reply rate, at least 1,500 deliveries per arm");
    expect(table.stdout).toContain("    early-vote-b wins (p < 0.05)\n");

    // The holdout's live text is the losing arm's: drift blocks its schedule.
    const drifted = await holdoutPlan(s, dir);
    expect(drifted.actions.map((a) => `${a.kind}:${a.status}`)).toEqual(["schedule:blocked"]);
    expect(drifted.actions[0]?.block?.codes).toEqual(["experiment.holdout-drift"]);

    // The winner's wording, in the dashboard and in the file (a reviewed change): planned, then sent once.
    await admin(s, "PATCH", `/projects/${HOLDOUT}`, { message_text: TEXT_B });
    writeFileSync(join(dir, "campaign.yaml"), campaignText({ holdoutText: TEXT_B }));
    const ready = await holdoutPlan(s, dir);
    expect(ready.actions.map((a) => `${a.kind}:${a.status}`)).toEqual(["schedule:planned"]);
    expect(ready.diagnostics.filter((d) => d.code.startsWith("experiment."))).toEqual([]);
    await admin(s, "DELETE", "/requests");
    const applied = await cli(s, dir, ["apply", "--auto-approve", "--json"]);
    expect(applied.code).toBe(0);
    const log = (await admin(s, "GET", "/requests")).body.data.requests as { method: string; path: string }[];
    expect(log.filter((r) => r.method === "POST").map((r) => r.path)).toEqual([
      `/projects/${HOLDOUT}/schedule`,
    ]);
    // Applied again: nothing more is sent.
    const again = await cli(s, dir, ["apply", "--auto-approve", "--json"]);
    expect(again.code).toBe(0);
    const after = (await admin(s, "GET", "/requests")).body.data.requests as { method: string }[];
    expect(after.filter((r) => r.method === "POST")).toHaveLength(1);
  }, 120_000);

  test("a holdout planned alone says its arms were not read; one already scheduled live is a warning", async () => {
    const s = await world();
    const dir = campaignDir(campaignText());
    const alone = await cli(s, dir, ["plan", "--json", "--target", "early-vote-rest"]);
    const rest = (JSON.parse(alone.stdout) as Plan).projects.find((p) => p.address === "early-vote-rest");
    expect(rest?.actions.map((a) => `${a.kind}:${a.status}`)).toEqual(["schedule:deferred"]);
    expect(rest?.actions[0]?.waits_for).toContain(
      "no statistics were read for early-vote-a, early-vote-b (plan without --target/--exclude, or include the arms)",
    );
    await admin(s, "PATCH", `/projects/${HOLDOUT}`, {
      status: "scheduled",
      scheduled_at: "2026-12-02T15:00:00Z",
    });
    const early = await holdoutPlan(s, dir);
    expect(early.diagnostics.map((d) => [d.code, d.severity])).toContainEqual([
      "experiment.holdout-sending-early",
      "warning",
    ]);
    expect(early.actions.every((a) => a.status !== "planned")).toBe(true);
  }, 120_000);
});
