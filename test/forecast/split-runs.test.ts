/**
 * Split runs see each other (issue 24 item 3, design.md Turn 4): two directories for one brand,
 * applied one after the other. The second run's forecast counts the live schedule the first run
 * made (from the statistics rows and its project read), so it reports the cap pause that schedule
 * causes; under the policy's `forecast_errors` that finding is an error and the second schedule is
 * never made. Against the sandbox over loopback; effects counted from `/_sandbox/effects`.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { runCli } from "../helpers/run-cli.js";
import { admin, EARLY_VOTE, GOTV_FOLLOWUP, GOTV_REMINDER, PARENT_KEY, sandbox } from "../sandbox/helpers.js";

interface PlanDoc {
  readonly projects: readonly {
    readonly address: string;
    readonly diagnostics: readonly {
      readonly severity: string;
      readonly code: string;
      readonly message: string;
    }[];
    readonly actions: readonly { readonly kind: string; readonly status: string }[];
  }[];
  readonly forecast?: {
    readonly projects: readonly {
      readonly address: string;
      readonly pause: { readonly recipients_left: number } | null;
    }[];
    readonly brand_days: readonly {
      readonly pacific_day: string;
      readonly daily_cap: number | null;
      readonly shares: readonly { readonly address: string; readonly messages: number }[];
    }[];
  };
}

/**
 * A working tree with the examples' policy (plus `forecastErrors`, if any) above two directories:
 * `a/` holds the GOTV reminder (2026-12-07 10:00 CST), `b/` the follow-up, moved to 12:00 CST the
 * same day. The policy declares the brand's cap of 50: each send (38) fits alone, together they do not.
 */
function splitWorld(forecastErrors: string | null): string {
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-split-runs-"));
  const campaigns = join(cwd, "campaigns");
  mkdirSync(campaigns);
  // The brand's cap belongs to the policy (docs/policy.md#capacity): 50 here.
  const policy = readFileSync("examples/campaignctl.policy.yaml", "utf8");
  expect(policy).toContain("Riverside Democrats: {daily_cap: 30}");
  writeFileSync(
    join(campaigns, "campaignctl.policy.yaml"),
    `${policy.replace("Riverside Democrats: {daily_cap: 30}", "Riverside Democrats: {daily_cap: 50}")}${
      forecastErrors === null ? "" : `  forecast_errors: ${forecastErrors}\n`
    }`,
  );
  const gotv = readFileSync("examples/gotv.yaml", "utf8")
    .replace('at: "2026-12-08T15:00:00-06:00"', 'at: "2026-12-07T12:00:00-06:00"')
    .replace("    after: [gotv-reminder]\n", "");
  const head = gotv.slice(0, gotv.indexOf("  gotv-reminder:"));
  const reminder = gotv.slice(gotv.indexOf("  gotv-reminder:"), gotv.indexOf("  gotv-followup:"));
  const followup = gotv.slice(gotv.indexOf("  gotv-followup:"));
  expect(head).toContain("projects:\n");
  expect(followup).not.toContain("after:");
  mkdirSync(join(campaigns, "a"));
  mkdirSync(join(campaigns, "b"));
  writeFileSync(join(campaigns, "a", "gotv-reminder.yaml"), head + reminder);
  writeFileSync(join(campaigns, "b", "gotv-followup.yaml"), head + followup);
  return cwd;
}

let sb: SandboxHandle;
beforeEach(async () => {
  sb = await sandbox({ rateLimits: true, autoApproveTests: true });
});
afterEach(async () => {
  await sb.close();
});

const cli = (cwd: string, ...argv: string[]) =>
  runCli([...argv, "--base-url", sb.baseUrl], { cwd, env: { CAMPAIGNCTL_API_KEY: PARENT_KEY } });

/** The effects of our requests (tests, schedules, pauses), not the sandbox's own test approvals. */
async function effects(): Promise<string[]> {
  const listed = (await admin(sb, "GET", "/effects")).body.data.effects as {
    project_id: string;
    kind: string;
  }[];
  const name = (id: string) => (id === GOTV_REMINDER ? "reminder" : id === GOTV_FOLLOWUP ? "followup" : id);
  return listed
    .filter((e) => e.kind !== "approve")
    .map((e) => `${e.kind} ${name(e.project_id)}`)
    .sort();
}

const LIVE_REMINDER = `GOTV Reminder (live ${GOTV_REMINDER})`;

describe("two directories of one brand, applied one after the other", () => {
  test("the second run's forecast counts the first run's live schedule: the follow-up pauses at the cap", async () => {
    const cwd = splitWorld(null);
    // Alone, the first directory's send fits under the cap, and is scheduled.
    const first = await cli(cwd, "apply", "campaigns/a", "--auto-approve", "--forecast");
    expect(first.code, first.stderr + first.stdout).toBe(0);
    expect(await effects()).toEqual(["schedule reminder", "test reminder"]);

    const r = await cli(cwd, "plan", "campaigns/b", "--forecast", "--json");
    const plan = JSON.parse(r.stdout) as PlanDoc;
    const followup = plan.projects.find((p) => p.address === "gotv-followup");
    const finding = followup?.diagnostics.find((d) => d.code === "forecast.cap-pause");
    expect(finding?.severity).toBe("warning");
    expect(finding?.message).toContain("with 26 of 38 recipients left");
    // The live reminder is in the forecast with its share of the day, and draws no finding itself.
    const day = plan.forecast?.brand_days.find((d) => d.pacific_day === "2026-12-07");
    expect(day?.daily_cap).toBe(50);
    expect(day?.shares.map((s) => [s.address, s.messages])).toEqual([
      [LIVE_REMINDER, 38],
      ["gotv-followup", 12],
    ]);
    expect(plan.forecast?.projects.map((p) => [p.address, p.pause?.recipients_left ?? null])).toEqual([
      ["gotv-followup", 26],
      [LIVE_REMINDER, null],
      // The example world's early-vote push of the same brand is sending: it counts too.
      [`Early Vote Push (live ${EARLY_VOTE})`, null],
    ]);
    // The first directory planned again: its own live schedule counts once, as its project.
    const own = JSON.parse((await cli(cwd, "plan", "campaigns/a", "--forecast", "--json")).stdout) as PlanDoc;
    expect(own.forecast?.projects.map((p) => p.address)).toEqual([
      "gotv-reminder",
      `Early Vote Push (live ${EARLY_VOTE})`,
    ]);
    // Planned again with nothing changed: the live reminder's project read comes from the cache.
    const before = (await admin(sb, "GET", "/requests")).body.data.requests.length as number;
    const again = JSON.parse(
      (await cli(cwd, "plan", "campaigns/b", "--forecast", "--json")).stdout,
    ) as PlanDoc;
    const paths = ((await admin(sb, "GET", "/requests")).body.data.requests as { path: string }[])
      .slice(before)
      .map((q) => q.path);
    expect(paths.filter((p) => p.endsWith(`/projects/${GOTV_REMINDER}`))).toEqual([]);
    expect(again.forecast?.brand_days).toEqual(plan.forecast?.brand_days);
    // Without a forecast the plan makes no reads of the brand's live sends, and has no finding.
    const plain = JSON.parse((await cli(cwd, "plan", "campaigns/b", "--json")).stdout) as PlanDoc;
    expect(plain.forecast).toBeUndefined();
  });

  test("under forecast_errors: the second run's cap pause is an error that holds its send; the sandbox never gets its schedule", async () => {
    const cwd = splitWorld("[cap-pause]");
    const first = await cli(cwd, "apply", "campaigns/a", "--auto-approve");
    expect(first.code, first.stderr + first.stdout).toBe(0);
    expect(await effects()).toEqual(["schedule reminder", "test reminder"]);

    const second = await cli(cwd, "apply", "campaigns/b", "--auto-approve");
    expect(second.code).toBe(1);
    expect(second.stdout + second.stderr).toContain("forecast.cap-pause");
    // Nothing of the follow-up was sent: its test and schedule are held.
    expect(await effects()).toEqual(["schedule reminder", "test reminder"]);

    const plan = JSON.parse((await cli(cwd, "plan", "campaigns/b", "--json")).stdout) as PlanDoc;
    const followup = plan.projects.find((p) => p.address === "gotv-followup");
    expect(
      followup?.diagnostics.filter((d) => d.code === "forecast.cap-pause").map((d) => d.severity),
    ).toEqual(["error"]);
    expect(followup?.actions.map((a) => `${a.kind} ${a.status}`)).toEqual([
      "test blocked",
      "schedule blocked",
    ]);
  });

  test("under forecast_errors, when the brand's live sends cannot be listed, the second run holds its send", async () => {
    const cwd = splitWorld("[cap-pause]");
    expect((await cli(cwd, "apply", "campaigns/a", "--auto-approve")).code).toBe(0);
    // The statistics listing refuses (the plan's own reads fall back to project reads by id).
    expect((await admin(sb, "POST", "/faults", { spec: "GET /projects/stats: status(400)" })).status).toBe(
      200,
    );
    const second = await cli(cwd, "apply", "campaigns/b", "--auto-approve");
    expect(second.code).toBe(1);
    expect(second.stdout + second.stderr).toContain("forecast.sent-unknown");
    expect(await effects()).toEqual(["schedule reminder", "test reminder"]);
    const plan = JSON.parse((await cli(cwd, "plan", "campaigns/b", "--json")).stdout) as PlanDoc;
    const followup = plan.projects.find((p) => p.address === "gotv-followup");
    expect(followup?.diagnostics.filter((d) => d.severity === "error").map((d) => d.code)).toEqual([
      "forecast.sent-unknown",
    ]);
    expect(followup?.actions.map((a) => `${a.kind} ${a.status}`)).toEqual([
      "test blocked",
      "schedule blocked",
    ]);
  });

  test("planned together, the same two sends draw the same finding (the split run now agrees)", async () => {
    const cwd = splitWorld(null);
    const r = await cli(cwd, "plan", "campaigns", "--forecast", "--json");
    const plan = JSON.parse(r.stdout) as PlanDoc;
    const finding = plan.projects
      .find((p) => p.address === "gotv-followup")
      ?.diagnostics.find((d) => d.code === "forecast.cap-pause");
    expect(finding?.message).toContain("with 26 of 38 recipients left");
  });
});
