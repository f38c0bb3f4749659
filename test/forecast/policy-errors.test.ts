/**
 * The forecast's findings under a policy (issue 19 item 3): warnings by default, errors under the
 * policy's `forecast_errors`, which hold the project's test and schedule (and its dependants') like
 * any policy violation; a policy with the rule forecasts without `--forecast`, so no flag leaves
 * its errors unjudged; apply's re-judge of one project at send time still counts the brand's other
 * projects; `--loosen-policy forecast_errors` turns it off for one run, and says so. Runs against
 * a sandbox of the example world over loopback; effects counted from `/_sandbox/effects`.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { runPlanPipeline } from "../../cli/gather/plan-pipeline.js";
import { openSession } from "../../cli/gather/session.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { captureIo, runCli } from "../helpers/run-cli.js";
import { admin, PARENT_KEY, sandbox } from "../sandbox/helpers.js";

interface PlanDoc {
  readonly diagnostics: readonly { readonly severity: string }[];
  readonly summary: { readonly errors: number; readonly warnings: number };
  readonly forecast?: unknown;
  readonly policy: { readonly loosened: readonly { readonly rule: string }[] } | null;
  readonly projects: readonly {
    readonly address: string;
    readonly diagnostics: readonly {
      readonly severity: string;
      readonly code: string;
      readonly hint?: string;
      readonly range?: { readonly file: string; readonly start: { readonly line: number } };
      readonly related?: readonly {
        readonly range: { readonly file: string; readonly start: { readonly line: number } };
      }[];
    }[];
    readonly actions: readonly {
      readonly id: string;
      readonly status: string;
      readonly block?: { readonly codes: readonly string[] };
    }[];
  }[];
}

const POLICY = "examples/campaignctl.policy.yaml";

/**
 * The examples in a temp dir; `forecastErrors` adds the rule to their policy; `dailyCap` replaces
 * the brand's daily cap of 30 that the policy declares.
 */
function examples(
  forecastErrors: string | null,
  editGotv?: (text: string) => string,
  dailyCap?: number,
): string {
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-forecast-policy-"));
  cpSync("examples", join(cwd, "examples"), { recursive: true });
  const policy = join(cwd, POLICY);
  if (dailyCap !== undefined)
    writeFileSync(
      policy,
      readFileSync(policy, "utf8").replace("{daily_cap: 30}", `{daily_cap: ${dailyCap}}`),
    );
  if (forecastErrors !== null)
    writeFileSync(policy, `${readFileSync(policy, "utf8")}  forecast_errors: ${forecastErrors}\n`);
  if (editGotv !== undefined) {
    const file = join(cwd, "examples", "gotv.yaml");
    writeFileSync(file, editGotv(readFileSync(file, "utf8")));
  }
  return cwd;
}

let sb: SandboxHandle;
beforeEach(async () => {
  sb = await sandbox({ rateLimits: true });
});
afterEach(async () => {
  await sb.close();
});

const cli = (cwd: string, ...argv: string[]) =>
  runCli([...argv, "--base-url", sb.baseUrl], { cwd, env: { CAMPAIGNCTL_API_KEY: PARENT_KEY } });

const statuses = (plan: PlanDoc, address: string) =>
  Object.fromEntries(
    (plan.projects.find((p) => p.address === address)?.actions ?? []).map((a) => [a.id, a.status]),
  );

const findings = (plan: PlanDoc, address: string) =>
  (plan.projects.find((p) => p.address === address)?.diagnostics ?? []).filter((d) =>
    d.code.startsWith("forecast."),
  );

describe("forecast findings and the policy", () => {
  test("without the rule: warnings on each project, nothing held; no bypass offered where the policy forbids it", async () => {
    const cwd = examples(null);
    const r = await cli(cwd, "plan", "examples/", "--forecast", "--json", "--detailed-exitcode");
    expect(r.code).toBe(2);
    const plan = JSON.parse(r.stdout) as PlanDoc;
    const reminder = findings(plan, "gotv-reminder");
    expect(reminder.map((d) => [d.severity, d.code])).toEqual([["warning", "forecast.cap-pause"]]);
    const atLine = readFileSync(join(cwd, "examples/gotv.yaml"), "utf8")
      .split("\n")
      .findIndex((l) => l.trim() === 'at: "2026-12-07T10:00:00-06:00"');
    expect(reminder[0]?.range).toMatchObject({ file: "examples/gotv.yaml", start: { line: atLine + 1 } });
    expect(reminder[0]?.hint).toContain("the policy forbids `daily_cap_bypass`");
    expect(reminder[0]?.hint).not.toContain("set `daily_cap_bypass: true`");
    expect(findings(plan, "gotv-followup").map((d) => d.code)).toEqual(["forecast.cap-pause"]);
    // The summary counts them (with the plan's own warnings, such as the frozen sandbox's clock skew).
    const listed = [...plan.diagnostics, ...plan.projects.flatMap((p) => p.diagnostics)];
    expect(plan.summary.warnings).toBe(listed.filter((d) => d.severity === "warning").length);
    expect(statuses(plan, "gotv-reminder")).toEqual({
      "gotv-reminder.test": "planned",
      "gotv-reminder.schedule": "deferred",
    });
    const without = JSON.parse((await cli(cwd, "plan", "examples/", "--json")).stdout) as PlanDoc;
    expect(without.forecast).toBeUndefined();
    expect(findings(without, "gotv-reminder")).toEqual([]);
  });

  test("with forecast_errors: the finding is an error at the file, naming the rule; the project and its dependants are held, without --forecast", async () => {
    const cwd = examples("[cap-pause]");
    const r = await cli(cwd, "plan", "examples/", "--json", "--detailed-exitcode");
    expect(r.code).toBe(3);
    const plan = JSON.parse(r.stdout) as PlanDoc;
    expect(plan.forecast).toBeDefined();
    const [error] = findings(plan, "gotv-reminder");
    expect(error).toMatchObject({ severity: "error", code: "forecast.cap-pause" });
    const ruleLine = readFileSync(join(cwd, POLICY), "utf8").split("\n").length - 1;
    expect(error?.related?.[0]?.range).toMatchObject({ file: POLICY, start: { line: ruleLine } });
    expect(statuses(plan, "gotv-reminder")).toEqual({
      "gotv-reminder.test": "blocked",
      "gotv-reminder.schedule": "blocked",
    });
    const schedule = plan.projects
      .find((p) => p.address === "gotv-reminder")
      ?.actions.find((a) => a.id === "gotv-reminder.schedule");
    expect(schedule?.block?.codes).toContain("forecast.cap-pause");
    expect(Object.values(statuses(plan, "gotv-followup")).every((s) => s === "blocked")).toBe(true);
    expect(statuses(plan, "early-vote-push")).toEqual({ "early-vote-push.pause": "planned" });

    const text = await cli(cwd, "plan", "examples/");
    expect(text.stdout).toContain("error[forecast.cap-pause]: gotv-reminder:");
    expect(text.stdout).toContain("against the policy: forecast.cap-pause");
    expect(text.stdout).toContain("Forecast (");
  });

  test("apply under the rule sends nothing the rule holds (effects from the sandbox)", async () => {
    const cwd = examples("[cap-pause]");
    const r = await cli(cwd, "apply", "examples/", "--auto-approve");
    expect(r.code).toBe(1);
    const effects = (await admin(sb, "GET", "/effects")).body.data.effects as {
      project_id: string;
      kind: string;
    }[];
    expect(effects.map((e) => `${e.kind} ${e.project_id.slice(-1)}`).sort()).toEqual(["pause 4", "test 3"]);
  });

  test("--loosen-policy forecast_errors: warnings again for this run, and the loosening is shown", async () => {
    const cwd = examples("[cap-pause]");
    const r = await cli(
      cwd,
      "plan",
      "examples/",
      "--forecast",
      "--json",
      "--loosen-policy",
      "forecast_errors",
    );
    const plan = JSON.parse(r.stdout) as PlanDoc;
    expect(plan.policy?.loosened.map((l) => l.rule)).toEqual(["forecast_errors"]);
    expect(findings(plan, "gotv-reminder").map((d) => d.severity)).toEqual(["warning"]);
    expect(statuses(plan, "gotv-reminder")["gotv-reminder.test"]).toBe("planned");
  });

  test("apply's re-judge of one project at send time still counts the brand's other projects", async () => {
    // A cap of 50: each send (38) fits alone; on one Pacific day the follow-up pauses after 12.
    const cwd = examples(
      "[cap-pause]",
      (text) =>
        text
          .replace('at: "2026-12-08T15:00:00-06:00"', 'at: "2026-12-07T15:00:00-06:00"')
          .replace('deadline: "2026-12-08T19:00:00-06:00"', 'deadline: "2026-12-07T19:00:00-06:00"'),
      50,
    );
    const io = captureIo({ cwd, env: { CAMPAIGNCTL_API_KEY: PARENT_KEY } });
    const opened = await openSession({ baseUrl: sb.baseUrl }, io);
    if (!opened.ok) throw new Error("no session");
    try {
      const planned = await runPlanPipeline(
        { paths: ["examples/"], targets: [], excludes: [], refresh: true },
        opened.session,
        io,
      );
      if (!planned.ok) throw new Error(planned.diagnostics.map((d) => d.message).join("\n"));
      const followup = (plan: typeof planned.plan) =>
        plan.projects.find((p) => p.address === "gotv-followup");
      expect(followup(planned.plan)?.diagnostics.map((d) => d.code)).toContain("forecast.cap-pause");
      expect(findings(planned.plan as unknown as PlanDoc, "gotv-reminder")).toEqual([]);
      // What the loop does before it sends the follow-up's schedule: judge that project alone.
      const now = new Date(sb.clock.nowMs());
      const alone = planned.judge(planned.live, now).project("gotv-followup", now);
      expect(alone?.address).toBe("gotv-followup");
      const schedule = alone?.actions.find((a) => a.kind === "schedule");
      expect(schedule?.status).toBe("blocked");
      expect(schedule?.block?.codes).toContain("forecast.cap-pause");
    } finally {
      await opened.session.close();
    }
  });

  test("--target does not leave a project of the brand out of the forecast: the one sending first still counts", async () => {
    // A cap of 50: the follow-up goes first on 2026-12-07 (38), so the reminder pauses after 12.
    const cwd = examples(
      "[cap-pause]",
      (text) =>
        text
          .replace('at: "2026-12-08T15:00:00-06:00"', 'at: "2026-12-07T09:00:00-06:00"')
          .replace('deadline: "2026-12-08T19:00:00-06:00"', 'deadline: "2026-12-07T19:00:00-06:00"'),
      50,
    );
    const r = await cli(cwd, "plan", "examples/", "--target", "gotv-reminder", "--json");
    const plan = JSON.parse(r.stdout) as PlanDoc;
    expect(plan.projects.map((p) => p.address)).toEqual(["gotv-reminder"]);
    expect(findings(plan, "gotv-reminder").map((d) => [d.severity, d.code])).toEqual([
      ["error", "forecast.cap-pause"],
    ]);
    expect(statuses(plan, "gotv-reminder")["gotv-reminder.schedule"]).toBe("blocked");
  });

  test("apply --forecast shows the forecast with the plan, before the question", async () => {
    const cwd = examples(null);
    const io = captureIo({ cwd, env: { CAMPAIGNCTL_API_KEY: PARENT_KEY }, tty: true });
    const { applyCommand } = await import("../../cli/commands/apply.js");
    let asked = "";
    await applyCommand(
      ["examples/"],
      { baseUrl: sb.baseUrl, forecast: true, color: false, parallelism: 4, target: [], exclude: [] },
      io,
      {
        ask: async (question) => {
          asked = io.out();
          return question === "" ? "" : "no";
        },
      },
    );
    expect(asked).toContain("Forecast (throughput: 10dlc 75, toll-free 180 segments a minute)");
    expect(asked).toContain(
      "gotv-reminder  38 recipients, starts 2026-12-07 10:00 CST, pauses at the daily cap",
    );
    expect(io.err()).toContain("Apply cancelled.");
    expect((await admin(sb, "GET", "/effects")).body.data.effects).toEqual([]);
  });
});
