/**
 * The forecast checked against the sandbox's own simulation: projects on one capped brand are
 * scheduled in a sandbox started at a fixed instant, forecast from their campaign file with capacity
 * equal to the sandbox's knobs (throughput `messages_per_batch` per `batch_interval_ms`, the brand's
 * `daily_cap`), the virtual clock runs, and per project the forecast finish (or cap pause and
 * recipients left) must match the sandbox's outcome (`completed_at`, `pause_reason`, counters)
 * within one batch interval and one batch of messages.
 */
import { createHash } from "node:crypto";
import { afterEach, describe, expect, test } from "vitest";
import { stringify } from "yaml";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import type { ScheduleTimezone } from "../../src/contract/limits.js";
import {
  capacityOfProjects,
  type Forecast,
  forecast,
  forecastProjectOf,
  type ProjectForecast,
} from "../../src/forecast/index.js";
import type { Fixture, FixtureProject } from "../../src/sandbox/fixture/types.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { admin, api, BRAND, GOTV_FOLLOWUP, GOTV_REMINDER, sandbox } from "../sandbox/helpers.js";
import { expectedAudience, fixtureWith } from "../sandbox/sending-fixture.js";

/** The sandbox's throughput in every case: 2 messages a minute (one batch of 2 per 60 s). */
const BATCH = 2;
const INTERVAL_MS = 60_000;
const PER_MINUTE = (BATCH * 60_000) / INTERVAL_MS;

interface Send {
  readonly address: string;
  readonly id: string;
  readonly at: string;
  readonly timezone: ScheduleTimezone;
  readonly bypass?: boolean;
  readonly deadline?: string;
}

interface Case {
  readonly name: string;
  /** The sandbox's clock start. */
  readonly start: string;
  readonly cap: number;
  readonly sends: readonly Send[];
  /** What the case is about, checked on the forecast itself. */
  readonly expect: (f: Forecast) => void;
}

const LA: ScheduleTimezone = "America/Los_Angeles";
const byAddress = (f: Forecast, address: string) =>
  f.projects.find((p) => p.address === address) as ProjectForecast;
const codes = (f: Forecast, address: string) =>
  f.diagnostics.filter((d) => d.message.startsWith(`${address}:`)).map((d) => d.code);

const CASES: readonly Case[] = [
  {
    name: "one project under the cap",
    start: "2026-12-01T16:00:00Z",
    cap: 2000,
    sends: [{ address: "gotv", id: GOTV_REMINDER, at: "2026-12-01T09:00:00-08:00", timezone: LA }],
    expect: (f) => {
      expect(byAddress(f, "gotv").pause).toBeNull();
      expect(f.diagnostics).toEqual([]);
    },
  },
  {
    name: "two projects sharing the cap on one Pacific day",
    start: "2026-12-01T16:00:00Z",
    cap: 50,
    sends: [
      { address: "gotv", id: GOTV_REMINDER, at: "2026-12-01T09:00:00-08:00", timezone: LA },
      {
        address: "followup",
        id: GOTV_FOLLOWUP,
        at: "2026-12-01T09:10:00-08:00",
        timezone: LA,
        deadline: "2026-12-01T19:00:00-08:00",
      },
    ],
    expect: (f) => {
      // 20 sent alone, then 15 each until the day's 50: both pause, the later one with more left.
      expect(byAddress(f, "gotv").pause?.recipientsLeft).toBe(3);
      expect(byAddress(f, "followup").pause?.recipientsLeft).toBe(23);
      expect(f.brandDays).toHaveLength(1);
      expect(f.brandDays[0]?.shares.map((s) => [s.address, s.messages])).toEqual([
        ["gotv", 35],
        ["followup", 15],
      ]);
      expect(codes(f, "followup")).toEqual(["forecast.cap-pause"]);
    },
  },
  {
    name: "a project crossing Pacific midnight (the cap counts again from 00:00)",
    start: "2026-12-02T07:00:00Z",
    cap: 30,
    sends: [{ address: "gotv", id: GOTV_REMINDER, at: "2026-12-01T23:50:00-08:00", timezone: LA }],
    expect: (f) => {
      expect(byAddress(f, "gotv").pause).toBeNull();
      expect(f.brandDays.map((d) => [d.pacificDay, d.total])).toEqual([
        ["2026-12-01", 20],
        ["2026-12-02", 18],
      ]);
    },
  },
  {
    name: "a bypass project runs past the cap",
    start: "2026-12-01T16:00:00Z",
    cap: 15,
    sends: [
      { address: "gotv", id: GOTV_REMINDER, at: "2026-12-01T09:00:00-08:00", timezone: LA, bypass: true },
    ],
    expect: (f) => {
      expect(byAddress(f, "gotv").overCap).toBe(23);
      expect(codes(f, "gotv")).toEqual(["forecast.over-cap"]);
    },
  },
  {
    name: "a send crossing 21:00 local time",
    start: "2026-12-02T01:00:00Z",
    cap: 2000,
    sends: [
      {
        address: "gotv",
        id: GOTV_REMINDER,
        at: "2026-12-01T20:50:00-05:00",
        timezone: "America/New_York",
        deadline: "2026-12-01T21:00:00-05:00",
      },
    ],
    expect: (f) => {
      const p = byAddress(f, "gotv");
      expect(p.quietHours?.fromMs).toBe(Date.parse("2026-12-02T02:00:00Z"));
      expect(p.localEnd).toBe("2026-12-01 21:09 EST");
      expect(codes(f, "gotv")).toEqual(["forecast.past-deadline", "forecast.quiet-hours"]);
    },
  },
  {
    name: "a DST change day (the Pacific day of 2027-03-14 has 23 hours)",
    start: "2027-03-15T06:00:00Z",
    cap: 30,
    // 23:50 PDT on the short day: its midnight is 07:00Z (a 24-hour day would end at 08:00Z).
    sends: [{ address: "gotv", id: GOTV_REMINDER, at: "2027-03-14T23:50:00-07:00", timezone: LA }],
    expect: (f) => {
      expect(byAddress(f, "gotv").pause).toBeNull();
      expect(f.brandDays.map((d) => [d.pacificDay, d.total, d.endMs - d.startMs])).toEqual([
        ["2027-03-14", 20, 23 * 3_600_000],
        ["2027-03-15", 18, 24 * 3_600_000],
      ]);
    },
  },
];

let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs).toEqual([]);
  await sb?.close();
  sb = undefined;
});

function world(c: Case): Fixture {
  return fixtureWith((f) => {
    f.clock = { start: c.start };
    for (const b of f.brands ?? []) b.daily_cap = c.cap;
    // Only the projects of the case, so nothing else of the brand sends.
    const ids = new Set(c.sends.map((s) => s.id));
    f.projects = (f.projects ?? []).filter((p: FixtureProject) => ids.has(p.project_id));
    f.conversations = (f.conversations ?? []).filter((c) => ids.has(c.project_id));
  });
}

/** The campaign file of the case: capacity as the sandbox's knobs, one project per send. */
function campaignText(c: Case): string {
  return stringify({
    version: 1,
    organization: "Riverside Democrats",
    capacity: {
      brands: { "Riverside Democrats": { daily_cap: c.cap } },
      throughput: { "10dlc": PER_MINUTE },
    },
    projects: Object.fromEntries(
      c.sends.map((s) => [
        s.address,
        {
          id: s.id,
          brand: "Riverside Democrats",
          channel: "10dlc",
          message: "Hi {{first_name|friend}}, polls are open until 7pm. Reply STOP to opt out",
          contact_lists: ["Ward 3"],
          state: "scheduled",
          schedule: { at: s.at, timezone: s.timezone, daily_cap_bypass: s.bypass ?? false },
          ...(s.deadline && { deadline: s.deadline }),
        },
      ]),
    ),
  });
}

function forecastOf(c: Case, recipients: number): Forecast {
  const text = campaignText(c);
  const file = { path: "campaign.yaml", text, sha256: createHash("sha256").update(text).digest("hex") };
  const { campaign, diagnostics } = assembleCampaign([file]);
  expect(diagnostics).toEqual([]);
  const nowMs = Date.parse(c.start);
  const { capacity } = capacityOfProjects(campaign.projects);
  const projects = campaign.projects.map(
    (spec) =>
      forecastProjectOf(
        spec,
        { recipients, segmentsPerMessage: 1, brandId: BRAND, brandName: "Riverside Democrats" },
        nowMs,
      ) ?? expect.unreachable(),
  );
  return forecast({ projects, capacity, nowMs });
}

async function schedule(s: Send): Promise<void> {
  const patched = await admin(sb as SandboxHandle, "PATCH", `/projects/${s.id}`, { status: "ready" });
  expect(patched.status).toBe(200);
  const r = await api(sb as SandboxHandle, "POST", `/projects/${s.id}/schedule`, {
    body: { scheduled_at: s.at, scheduled_timezone: s.timezone, daily_cap_bypass: s.bypass ?? false },
  });
  expect(r.status).toBe(200);
}

interface Outcome {
  readonly status: string;
  readonly pause_reason?: string | null;
  readonly completed_at?: string | null;
  readonly updated_at: string;
  readonly counters: { readonly messages_sent: number };
}

describe("the forecast against the sandbox's simulation", () => {
  test.each(CASES)("$name", async (c) => {
    const fixture = world(c);
    const recipients = expectedAudience(fixture).length;
    expect(recipients).toBe(38);
    const f = forecastOf(c, recipients);
    c.expect(f);

    sb = await sandbox({ fixture });
    await admin(sb, "PATCH", "/simulation", {
      messages_per_batch: BATCH,
      batch_interval_ms: INTERVAL_MS,
      failure_rate: 0,
    });
    for (const s of c.sends) await schedule(s);
    // Run the virtual clock well past every projected end (a day and a half).
    for (let h = 0; h < 36; h++) await admin(sb, "POST", "/clock/advance", { ms: 3_600_000 });

    const sent = (await admin(sb, "GET", "/messages")).body.data as {
      project_id: string;
      over_cap: boolean;
      sent_at: string;
    }[];
    for (const s of c.sends) {
      const p = byAddress(f, s.address);
      const live = (await admin(sb, "GET", `/projects/${s.id}`)).body.data as Outcome;
      expect(
        Math.abs(live.counters.messages_sent - p.sent),
        `${s.address}: messages sent`,
      ).toBeLessThanOrEqual(BATCH);
      if (p.pause === null) {
        expect(live.status).toBe("completed");
        const finished = Date.parse(live.completed_at ?? "");
        expect(Math.abs(finished - (p.finishMs as number)), `${s.address}: finish`).toBeLessThanOrEqual(
          INTERVAL_MS,
        );
      } else {
        expect(live).toMatchObject({ status: "paused", pause_reason: "daily_cap_reached" });
        const pausedAt = Date.parse(live.updated_at);
        expect(Math.abs(pausedAt - p.pause.atMs), `${s.address}: pause`).toBeLessThanOrEqual(INTERVAL_MS);
        const left = recipients - live.counters.messages_sent;
        expect(Math.abs(left - p.pause.recipientsLeft), `${s.address}: recipients left`).toBeLessThanOrEqual(
          BATCH,
        );
      }
      const overCap = sent.filter((m) => m.project_id === s.id && m.over_cap).length;
      expect(Math.abs(overCap - p.overCap), `${s.address}: over the cap`).toBeLessThanOrEqual(BATCH);
      const quietHours = p.quietHours;
      if (quietHours !== null) {
        const quiet = sent.filter(
          (m) => m.project_id === s.id && Date.parse(m.sent_at) > quietHours.fromMs,
        ).length;
        expect(Math.abs(quiet - quietHours.messages), `${s.address}: in quiet hours`).toBeLessThanOrEqual(
          BATCH,
        );
      }
    }
    // The brand's messages per Pacific day, as the sandbox counted them.
    for (const day of f.brandDays) {
      const n = sent.filter((m) => {
        const t = Date.parse(m.sent_at);
        return t >= day.startMs && t < day.endMs;
      }).length;
      expect(Math.abs(n - day.total), `${day.pacificDay}: messages of the day`).toBeLessThanOrEqual(BATCH);
    }
  });
});
