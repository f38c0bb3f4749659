/**
 * The policy's `budgets` (issue 37 point 5) against the sandbox over loopback. The fixture is the
 * example world plus a project that cost $4.00 and was last updated on the 1st of the sandbox's
 * month (its clock starts 2026-12-01T15:00Z): the statistics of the month say $4.00 spent. Under
 * a budget of $5 a month, a send estimated at $2.00 is held with the figures; at $0.50 it goes.
 * The period is the API's month, whatever the machine's date.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { periodOf } from "../../src/policy/budget-rule.js";
import { combinePolicies } from "../../src/policy/combine.js";
import { parsePolicy } from "../../src/policy/parse.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { where } from "../campaign/helpers.js";
import { runCli } from "../helpers/run-cli.js";
import { documentOf } from "../helpers/schemas.js";
import {
  admin,
  EXAMPLE_FIXTURE,
  GOTV_FOLLOWUP,
  GOTV_REMINDER,
  ORG,
  PARENT_KEY,
  sandbox,
} from "../sandbox/helpers.js";
import { type Line, runWatch } from "../watch/harness.js";

/**
 * The example fixture with a completed project of Riverside Democrats that cost `spent` this month,
 * written once per value and file run (the sandbox only reads it).
 */
const fixtures = new Map<string, string>();
function fixtureSpent(spent: string, sendingSince?: string): string {
  const name = sendingSince === undefined ? spent : `${spent} ${sendingSince}`;
  const known = fixtures.get(name);
  // Temporary directories are removed after each file: a later run makes it again.
  if (known !== undefined && existsSync(known)) return known;
  const fixture = parse(readFileSync(EXAMPLE_FIXTURE, "utf8"));
  fixture.projects.push({
    project_id: "9a000000-0000-4000-8000-0000000000aa",
    organization_id: ORG,
    name: "Rally Reminder",
    channel: "10dlc",
    brand_id: "b1a2c3d4-0000-4000-8000-000000000001",
    campaign_id: "c1a2c3d4-0000-4000-8000-000000000001",
    message_text: "Rally tonight at 6. Reply STOP to opt out",
    created_at: "2026-11-30T17:00:00.000Z",
    // Completed on the 1st, or still sending since it went active before the month began (a
    // status change moves updated_at; a message sent does not).
    ...(sendingSince === undefined
      ? {
          status: "completed",
          updated_at: "2026-12-01T12:00:00.000Z",
          completed_at: "2026-12-01T12:00:00.000Z",
        }
      : { status: "active", updated_at: sendingSince }),
    stats: { messages_sent: 500, actual_cost: spent },
  });
  const file = join(mkdtempSync(join(tmpdir(), "campaignctl-budget-fixture-")), "sandbox.yaml");
  writeFileSync(file, stringify(fixture));
  fixtures.set(name, file);
  return file;
}

let sb: SandboxHandle | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/** The examples under `budgets: [rule]`, the GOTV sends estimated at `reminder` and 10 cents. */
async function world(spent: string, rule: string, reminder: number, sendingSince?: string): Promise<string> {
  sb = await sandbox({ fixture: fixtureSpent(spent, sendingSince) });
  for (const [id, cents] of [
    [GOTV_REMINDER, reminder],
    [GOTV_FOLLOWUP, 10],
  ] as const)
    expect((await admin(sb, "PATCH", `/projects/${id}`, { estimated_cost_cents: cents })).status).toBe(200);
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-budget-"));
  cpSync("examples", join(cwd, "examples"), { recursive: true });
  const policy = join(cwd, "examples", "campaignctl.policy.yaml");
  writeFileSync(policy, `${readFileSync(policy, "utf8")}  budgets: [${rule}]\n`);
  return cwd;
}

const cli = (cwd: string, ...argv: string[]) =>
  runCli([...argv, "--base-url", sb?.baseUrl ?? ""], { cwd, env: { CAMPAIGNCTL_API_KEY: PARENT_KEY } });

interface PlanDoc {
  projects: {
    address: string;
    actions: { id: string; status: string; block?: { codes: string[] } }[];
    diagnostics: { code: string; message: string; range?: { file: string; start: { line: number } } }[];
  }[];
}

const MONTHLY = "{usd: 5, per: month, organization: Riverside Democrats}";
/** The line of the reminder's `schedule:` map (the line after its key, where the finding points). */
const SCHEDULE_LINE = 1 + readFileSync("examples/gotv.yaml", "utf8").split("\n").indexOf("    schedule:") + 1;

describe("a budget of $5 a month with $4.00 spent", () => {
  it("a $2.00 send is held, naming the budget, the spent, the planned and the left", async () => {
    const cwd = await world("4.0000", MONTHLY, 200);
    const r = await cli(cwd, "plan", "examples/", "--json");
    const plan = documentOf("plan", r.stdout) as unknown as PlanDoc;
    const reminder = plan.projects.find((p) => p.address === "gotv-reminder");
    const finding = reminder?.diagnostics.find((d) => d.code === "policy.budget");
    expect(finding?.message).toBe(
      'gotv-reminder: the send (estimated $2.00) would cross the budget "monthly $5 for Riverside Democrats": spent $4.00 this month (since 2026-12-01 00:00 UTC, the API\'s clock), planned $2.00 (this send), left $1.00 of $5.00',
    );
    expect(finding?.range).toMatchObject({ file: "examples/gotv.yaml", start: { line: SCHEDULE_LINE } });
    expect(reminder?.actions.find((a) => a.id === "gotv-reminder.schedule")).toMatchObject({
      status: "blocked",
      block: { codes: ["policy.budget"] },
    });
    // What is ordered after it is held too; the test (to the reviewers' phones) is not.
    expect(reminder?.actions.find((a) => a.id === "gotv-reminder.test")?.status).not.toBe("blocked");
    const followup = plan.projects.find((p) => p.address === "gotv-followup");
    expect(followup?.actions.every((a) => a.status === "blocked")).toBe(true);
    // The plan (and a saved plan) carries the figures.
    expect((plan as unknown as { budgets: unknown }).budgets).toEqual([
      {
        budget: "monthly $5 for Riverside Democrats",
        period_start: "2026-12-01",
        cap_cents: 500,
        spent_cents: 400,
        scheduled_cents: 0,
        planned_cents: 10,
        held: ["gotv-reminder"],
      },
    ]);
    // "since 2026-12-01": the sandbox's month (its clock), not the machine's, whatever today is.
  });

  it("a $0.50 send passes (with the follow-up's $0.10: $4.60 of $5)", async () => {
    const cwd = await world("4.0000", MONTHLY, 50);
    const r = await cli(cwd, "plan", "examples/", "--json");
    const plan = documentOf("plan", r.stdout) as unknown as PlanDoc;
    expect(r.stdout).not.toContain("policy.budget");
    const reminder = plan.projects.find((p) => p.address === "gotv-reminder");
    expect(reminder?.actions.find((a) => a.id === "gotv-reminder.schedule")?.status).not.toBe("blocked");
  });

  it("with $0 spent, the $2.00 send goes; another organization's budget does not cover it", async () => {
    const cwd = await world("0.0000", MONTHLY, 200);
    expect((await cli(cwd, "plan", "examples/", "--json")).stdout).not.toContain("policy.budget");
    await sb?.close();
    const other = await world("4.0000", "{usd: 5, per: month, organization: Yolo Democrats}", 200);
    expect((await cli(other, "plan", "examples/", "--json")).stdout).not.toContain("policy.budget");
  });

  it("apply sends no schedule over the budget, the held one named in its error", async () => {
    const cwd = await world("4.0000", MONTHLY, 200);
    const r = await cli(cwd, "apply", "examples/", "--auto-approve");
    expect(r.stdout + r.stderr).toContain("error[policy.budget]");
    const effects = (await admin(sb as SandboxHandle, "GET", "/effects")).body.data.effects as {
      project_id: string;
      kind: string;
    }[];
    expect(effects.filter((e) => e.kind === "schedule")).toEqual([]);
  });
});

describe("watch alerts once when the month's spending crosses the budget", () => {
  it("$4.00 spent: no alert; then $6.00: one alert, and none on the polls after", async () => {
    const cwd = await world("4.0000", MONTHLY, 200);
    const handle = sb as SandboxHandle;
    let interrupt: () => void = () => {};
    const run = await runWatch(handle, join(cwd, "examples"), [], {
      flags: { json: true, interval: 5000 },
      deps: {
        onInterrupt: (handler) => {
          interrupt = handler;
          return () => {};
        },
      },
      beforeWait: (n) => {
        // After the first poll, the month's sends have cost $6.00 (the completed project's counter).
        if (n === 1)
          handle.store.mutate((w) => {
            const rally = w.projects["9a000000-0000-4000-8000-0000000000aa"];
            if (rally !== undefined) rally.counters.actual_cost_e4 = 60_000;
          });
        if (n === 4) interrupt();
      },
    });
    expect(run.lines.at(-1)).toMatchObject({ type: "stop", reason: "interrupted", polls: 4 });
    const alerts = run.lines.filter(
      (l: Line) => l.type === "diagnostic" && l.diagnostic.code === "watch.budget-crossed",
    );
    expect(alerts.map((l: Line) => l.diagnostic.message)).toEqual([
      'the budget "monthly $5 for Riverside Democrats" is crossed: spent $6.00 this month (since 2026-12-01 00:00 UTC, the API\'s clock), over its $5.00 by $1.00',
    ]);
    // It came on the second poll: the first saw $4.00.
    const second = run.lines.findIndex((l: Line) => l.type === "poll" && l.poll === 2);
    const first = run.lines.findIndex((l: Line) => l.type === "poll" && l.poll === 1);
    const at = run.lines.indexOf(alerts[0]);
    expect(at > first && at < second).toBe(true);
  });
});

describe("a project sending since before the period", () => {
  // Went active on November 30 and still sends on December 1: no status change this month, so the
  // statistics of the month's days alone do not list it; its spending counts whole, as any other.
  const SINCE = "2026-11-30T23:00:00.000Z";

  it("watch alerts on its spending", async () => {
    const cwd = await world("6.0000", MONTHLY, 200, SINCE);
    const run = await runWatch(sb as SandboxHandle, join(cwd, "examples"), [], {
      flags: { json: true, once: true },
    });
    const alerts = run.lines.filter(
      (l: Line) => l.type === "diagnostic" && l.diagnostic.code === "watch.budget-crossed",
    );
    expect(alerts.map((l: Line) => l.diagnostic.message)).toEqual([
      'the budget "monthly $5 for Riverside Democrats" is crossed: spent $6.00 this month (since 2026-12-01 00:00 UTC, the API\'s clock), over its $5.00 by $1.00',
    ]);
  });

  it("plan holds a send its spending leaves no room for", async () => {
    const cwd = await world("4.0000", MONTHLY, 200, SINCE);
    const result = await cli(cwd, "plan", "examples/", "--json");
    const doc = documentOf("plan", result.stdout) as unknown as PlanDoc;
    const reminder = doc.projects.find((p) => p.address === "gotv-reminder");
    const budget = reminder?.diagnostics.find((d) => d.code === "policy.budget");
    expect(budget?.message).toContain("spent $4.00 this month");
  });
});

describe("the rule", () => {
  it("periods are UTC calendar periods of the given instant (the API's clock)", () => {
    const at = new Date("2026-12-31T23:59:59Z");
    expect(periodOf("month", at).startDate).toBe("2026-12-01");
    expect(periodOf("week", at).startDate).toBe("2026-12-28");
    expect(periodOf("day", at).startDate).toBe("2026-12-31");
    expect(periodOf("month", new Date("2027-01-01T00:00:00Z")).startDate).toBe("2027-01-01");
  });

  it("combines as a floor: a nearer file keeps every cap, at most as large", () => {
    const policy = (text: string, file: string) => {
      const parsed = parsePolicy(file, `version: 1\nrules:\n  budgets: ${text}\n`);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
      return parsed.policy;
    };
    const farther = policy("[{usd: 5, per: month}]", "campaignctl.policy.yaml");
    const near = (text: string) => policy(text, "c/campaignctl.policy.yaml");
    expect(
      combinePolicies([farther, near("[{usd: 4, per: month}, {usd: 1, per: day}]")], []).diagnostics,
    ).toEqual([]);
    expect(combinePolicies([farther, near("[{usd: 6, per: month}]")], []).diagnostics.map(where)).toEqual([
      "policy.loosens-ancestor@3:3",
    ]);
    expect(combinePolicies([farther, near("[{usd: 5, per: week}]")], []).diagnostics.map(where)).toEqual([
      "policy.loosens-ancestor@3:3",
    ]);
  });
});
