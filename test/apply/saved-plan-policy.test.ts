/**
 * A saved plan with a policy finding applies what it may (issue 15 item 3), end to end through the
 * CLI (run in-process with a captured terminal, a machine clock at the fixture's instant) against a sandbox started in this process at the example
 * fixture's fixed instant (frozen virtual clock, the API's clock for the plan): `plan --out`, then
 * `apply PLANFILE`. The project that breaks the examples' policy keeps its actions blocked, and so
 * does the project ordered `after:` it; every other reviewed action runs once (the sandbox's effects
 * log); the run exits 1 naming the blocked actions. Both documents are valid against their schemas
 * (ajv, JSON Schema 2020-12).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { ApplyResult } from "../../src/apply/types.js";
import type { Plan } from "../../src/plan/types.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { clockFrom } from "../helpers/clock.js";
import { runCli } from "../helpers/run-cli.js";
import { schemaErrors } from "../helpers/schemas.js";
import { EARLY_VOTE, GOTV_FOLLOWUP, GOTV_REMINDER, PARENT_KEY, VOLUNTEERS } from "../sandbox/helpers.js";
import { effectCounts, effects } from "./helpers.js";

/** The example fixture's `clock.start`: the sandbox starts there, whatever the date today. */
const FIXTURE_START = new Date("2026-12-01T15:00:00Z");

interface Case {
  readonly name: string;
  /** The policy code the follow-up's actions are blocked with. */
  readonly code: string;
  /** Edits the follow-up's schedule block in examples/gotv.yaml (the text as written there). */
  readonly schedule: string;
}

const FOLLOWUP_SCHEDULE = `      at: "2026-12-08T15:00:00-06:00"
      timezone: America/Chicago`;

const cases: readonly Case[] = [
  {
    name: "daily_cap_bypass: forbid, and the follow-up bypasses the cap",
    code: "policy.daily-cap-bypass",
    schedule: `${FOLLOWUP_SCHEDULE}\n      daily_cap_bypass: true`,
  },
  {
    name: "forbid_at_now, and the follow-up says at: now",
    code: "policy.forbid-at-now",
    schedule: "      at: now\n      timezone: America/Chicago",
  },
];

let dir: string | undefined;
let sb: SandboxHandle | undefined;
afterEach(async () => {
  await sb?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  sb = undefined;
  dir = undefined;
});

/** A copy of examples/ (with its policy file) where the follow-up breaks the policy and the volunteers wait for it. */
function campaign(schedule: string): string {
  const root = mkdtempSync(join(tmpdir(), "campaignctl-saved-policy-"));
  cpSync(join(process.cwd(), "examples"), join(root, "examples"), { recursive: true });
  const gotv = join(root, "examples", "gotv.yaml");
  const text = readFileSync(gotv, "utf8");
  expect(text).toContain(FOLLOWUP_SCHEDULE);
  writeFileSync(gotv, text.replace(FOLLOWUP_SCHEDULE, schedule));
  const volunteers = join(root, "examples", "volunteers.yaml");
  const vText = readFileSync(volunteers, "utf8");
  expect(vText).toContain("    state: tested\n");
  writeFileSync(
    volunteers,
    vText.replace("    state: tested\n", "    state: tested\n    after: [gotv-followup]\n"),
  );
  return root;
}

describe("a saved plan with a policy finding applies what it may", () => {
  test.each(cases)(
    "$name",
    async ({ code, schedule }) => {
      dir = campaign(schedule);
      // The embedded test approval (as with --sandbox) lets the reminder's schedule follow its test.
      sb = await startSandbox({ start: FIXTURE_START, autoApproveTests: true, rateLimits: true });
      const env = { CAMPAIGNCTL_API_KEY: PARENT_KEY, CAMPAIGNCTL_BASE_URL: sb.baseUrl };

      const clock = clockFrom(FIXTURE_START);
      const planned = await runCli(["plan", "examples", "--out", "plan.json"], { cwd: dir, env, clock });
      expect(planned.code, planned.stderr).toBe(1);
      expect(planned.stdout).toContain(`error[${code}]`);
      const saved = JSON.parse(readFileSync(join(dir, "plan.json"), "utf8")) as Plan;
      expect(schemaErrors("plan", saved)).toEqual([]);
      const status = (plan: Plan) =>
        Object.fromEntries(plan.projects.flatMap((p) => p.actions).map((a) => [a.id, a.status]));
      expect(status(saved)).toEqual({
        "early-vote-push.pause": "planned",
        "gotv-reminder.test": "planned",
        "gotv-reminder.schedule": "deferred",
        "gotv-followup.test": "blocked",
        "gotv-followup.schedule": "blocked",
        "volunteer-recruitment.test": "blocked",
      });
      const followup = saved.projects.find((p) => p.address === "gotv-followup");
      for (const a of followup?.actions ?? []) expect(a.block?.codes).toContain(code);
      expect(await effects(sb)).toEqual([]);

      const applied = await runCli(["apply", "plan.json", "--auto-approve", "--json"], {
        cwd: dir,
        env,
        clock,
      });
      expect(applied.code, applied.stderr).toBe(1);
      const result = JSON.parse(applied.stdout) as ApplyResult;
      expect(schemaErrors("apply-result", result)).toEqual([]);
      expect(result.refused).toEqual([]);
      const outcome = Object.fromEntries(result.actions.map((a) => [a.id, a.status]));
      expect(outcome).toEqual({
        "early-vote-push.pause": "done",
        "gotv-reminder.test": "done",
        "gotv-reminder.schedule": "done",
        "gotv-followup.test": "blocked",
        "gotv-followup.schedule": "blocked",
        "volunteer-recruitment.test": "blocked",
      });
      const reason = (id: string) => result.actions.find((a) => a.id === id)?.reason ?? "";
      expect(reason("gotv-followup.schedule")).toContain(code.slice("policy.".length));
      expect(reason("volunteer-recruitment.test")).toContain("gotv-followup.test");
      // stderr: the saved plan was accepted, and the progress names each blocked action.
      expect(applied.stderr).toContain("it is the same plan");
      for (const id of ["gotv-followup.test", "gotv-followup.schedule", "volunteer-recruitment.test"])
        expect(applied.stderr).toMatch(new RegExp(`${id.replace(".", "\\.")}: blocked$`, "m"));

      // The sandbox's own log: each allowed action once, nothing for the blocked projects.
      const sends = (await effects(sb)).filter((e) => ["test", "schedule", "pause"].includes(e.kind));
      const counts = effectCounts(sends);
      expect(Object.fromEntries(counts)).toEqual({
        [`${EARLY_VOTE}:pause`]: 1,
        [`${GOTV_REMINDER}:test`]: 1,
        [`${GOTV_REMINDER}:schedule`]: 1,
      });
      expect(counts.has(`${GOTV_FOLLOWUP}:test`)).toBe(false);
      expect(counts.has(`${VOLUNTEERS}:test`)).toBe(false);
    },
    60_000,
  );
});
