/**
 * A live project already sending counts in the forecast with what it has sent (issue 19: "live
 * projects already sending count too"): the plan reads their `messages_sent` in one bulk statistics
 * listing, the project goes on from the clock with the rest of its recipients, and its messages of
 * the Pacific day count against the brand's cap. The example world is scheduled through `apply`,
 * then the sandbox's virtual clock runs the send part of the way.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { runCli } from "../helpers/run-cli.js";
import { admin, GOTV_REMINDER, PARENT_KEY, sandbox } from "../sandbox/helpers.js";

let sb: SandboxHandle;
beforeEach(async () => {
  sb = await sandbox({ rateLimits: true, autoApproveTests: true });
});
afterEach(async () => {
  await sb.close();
});

interface ForecastDoc {
  readonly now: string;
  readonly projects: readonly {
    readonly address: string;
    readonly start: string;
    readonly sent: number;
    readonly finish: string | null;
    readonly pause: { readonly recipients_left: number } | null;
  }[];
  readonly brand_days: readonly {
    readonly pacific_day: string;
    readonly total: number;
    readonly shares: readonly { readonly address: string; readonly messages: number }[];
  }[];
}

test("a sending project: what it sent counts, it goes on from the clock, and today's cap counts it", async () => {
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-forecast-live-"));
  cpSync("examples", join(cwd, "examples"), { recursive: true });
  // A cap the send stays under, so that its finish shows what is left to send (the policy's).
  const policy = join(cwd, "examples", "campaignctl.policy.yaml");
  writeFileSync(policy, readFileSync(policy, "utf8").replace("{daily_cap: 30}", "{daily_cap: 100}"));
  const cli = (...argv: string[]) =>
    runCli([...argv, "--base-url", sb.baseUrl], { cwd, env: { CAMPAIGNCTL_API_KEY: PARENT_KEY } });
  const applied = await cli("apply", "examples/", "--auto-approve");
  expect(applied.code, applied.stderr + applied.stdout).toBe(0);
  // One message a second, and 20 seconds into the reminder's send (2026-12-07 10:00 CST).
  expect(
    (await admin(sb, "PATCH", "/simulation", { messages_per_batch: 1, batch_interval_ms: 1000 })).status,
  ).toBe(200);
  await sb.clock.set(new Date("2026-12-07T16:00:20Z"));
  const row = sb.store.world.projects[GOTV_REMINDER];
  expect(row?.status).toBe("active");
  const sentLive = row?.counters.messages_sent ?? 0;
  expect(sentLive).toBeGreaterThan(0);
  expect(sentLive).toBeLessThan(30);

  const requestsBefore = (await admin(sb, "GET", "/requests")).body.data.requests.length as number;
  const r = await cli("plan", "examples/", "--forecast", "--json");
  const plan = JSON.parse(r.stdout) as { forecast: ForecastDoc };
  const requests = (await admin(sb, "GET", "/requests")).body.data.requests.slice(requestsBefore) as {
    path: string;
  }[];
  // The plan's own statistics page, and one listing of the brand's live sends over the three
  // windows the contract allows (a schedule set long ago is listed only by an older one).
  expect(requests.filter((q) => q.path.includes("/projects/stats")).length).toBeLessThanOrEqual(4);
  const forecast = plan.forecast;
  const projected = forecast.projects.find((p) => p.address === "gotv-reminder");
  expect(projected?.start).toBe(forecast.now);
  // It goes on from the clock with the rest: 38 - sent at 75 a minute (0.8 s each).
  expect(projected?.pause).toBeNull();
  expect(projected?.sent).toBe(38);
  const finishMs = Date.parse(projected?.finish ?? "");
  expect(Math.abs(finishMs - (Date.parse(forecast.now) + (38 - sentLive) * 800))).toBeLessThan(1000);
  // The day's count holds all 38, those already sent included.
  const today = forecast.brand_days.find((d) => d.pacific_day === "2026-12-07");
  expect(today?.total).toBe(38);
  expect(today?.shares).toEqual([{ address: "gotv-reminder", messages: 38, over_cap: 0 }]);
});
