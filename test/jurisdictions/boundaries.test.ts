/**
 * The one table of the one send window (test/fixtures/send-rules-boundaries.ts), run by each of its
 * readers: the core (src/jurisdictions/send-rules.ts), lint's quiet hours, the policy (its start
 * offline as validate judges it, and the whole send as plan judges it after forecasting), the
 * forecast (and its JSON) and the gallery's timeline. One table, every consumer: none can drift.
 */
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { quietHoursRule } from "../../src/campaign/lint/schedule.js";
import type { ProjectSpec } from "../../src/campaign/model.js";
import { DEFAULT_CAPACITY } from "../../src/forecast/capacity.js";
import { forecast } from "../../src/forecast/forecast.js";
import { forecastJson } from "../../src/forecast/json.js";
import type { Forecast } from "../../src/forecast/types.js";
import {
  type Breach,
  chosenRules,
  judgeSend,
  SHIPPED_PACKS,
  sendPlaces,
  sendRules,
  startsThatFit,
  zonesOf,
} from "../../src/jurisdictions/index.js";
import type { Policy } from "../../src/policy/model.js";
import { parsePolicy } from "../../src/policy/parse.js";
import { policyViolations, windowViolations } from "../../src/policy/rules.js";
import { offlineFacts } from "../../src/policy/window-rules.js";
import { forecastTimelineHtml } from "../../src/report/gallery/timeline.js";
import { buildTimeline } from "../../src/report/gallery/timeline-model.js";
import { campaignFile } from "../campaign/helpers.js";
import { SEND_RULES_BOUNDARIES, type SendRulesBoundary } from "../fixtures/send-rules-boundaries.js";

const MINUTE = 60_000;
const PACK = SHIPPED_PACKS.get("us-state-hours");

/** `HH:mm`, or `HH:mm:ss` when the seconds matter, of `ms` in `zone`. */
function clock(ms: number, zone: string): string {
  const t = DateTime.fromMillis(ms, { zone });
  return t.toFormat(t.second === 0 ? "HH:mm" : "HH:mm:ss");
}

/** A breach as the table writes it: `SOURCE ZONE HH:MM`. */
function entry(b: Breach): string {
  const source = b.source.kind === "state" ? b.source.rule.id : b.source.kind;
  return `${source} ${b.zone} ${clock(b.fromMs, b.zone)}`;
}

const nonFederal = (e: string) => !e.startsWith("federal ");
const codeOf = (e: string) => (e.startsWith("policy ") ? "policy.send-window" : "policy.jurisdictions");

/** The row's policy file: its places for list `L` of organization `Org`, its window and jurisdictions. */
function policyOf(row: SendRulesBoundary): Policy {
  const places =
    row.places === null
      ? ""
      : `places:\n  Org:\n    L: {${[
          row.places.states === undefined ? "" : `states: [${row.places.states.join(", ")}]`,
          row.places.zones === undefined ? "" : `zones: [${row.places.zones.join(", ")}]`,
        ]
          .filter((s) => s !== "")
          .join(", ")}}\n`;
  const messages = row.messages === undefined ? "all" : row.messages;
  const rules = [
    row.window === undefined ? "" : `  send_window: {from: "${row.window.from}", to: "${row.window.to}"}\n`,
    messages === null ? "" : `  jurisdictions: {packs: [us-state-hours], messages: ${messages}}\n`,
  ].join("");
  const parsed = parsePolicy("campaignctl.policy.yaml", `version: 1\n${places}rules:\n${rules || "  {}\n"}`);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.policy;
}

/** The row's project: organization `Org`, list `L`, scheduled at the row's instant and zone. */
function projectOf(row: SendRulesBoundary): ProjectSpec {
  const text = `version: 1
organization: Org
projects:
  p:
    id: 9a000000-0000-4000-8000-000000000001
    message: "Hi, vote Tuesday. Reply STOP to opt out"
    contact_lists: [L]
    state: scheduled
    schedule: {at: "${row.at}", timezone: ${row.zone}}
`;
  const assembled = assembleCampaign([campaignFile("gotv.yaml", text)]);
  const spec = assembled.campaign.projects[0];
  if (spec === undefined) throw new Error(JSON.stringify(assembled.diagnostics));
  return spec;
}

/** The row's send in the forecast: one recipient a second (no brand, so no cap), for its minutes. */
function forecastOf(row: SendRulesBoundary): Forecast {
  const at = Date.parse(row.at);
  const places =
    row.places === null ? null : { states: row.places.states ?? [], zones: row.places.zones ?? [] };
  const messages = row.messages === undefined ? "all" : row.messages;
  return forecast({
    projects: [
      {
        address: "edge",
        organization: "Org",
        brand: undefined,
        channel: "10dlc",
        recipients: row.minutes * 60,
        segmentsPerMessage: 1,
        startMs: at,
        timezone: row.zone,
        dailyCapBypass: false,
        ...(places === null ? {} : { recipientZones: zonesOf(places), recipientStates: places.states }),
      },
    ],
    capacity: { ...DEFAULT_CAPACITY, throughput: { "10dlc": 60, "toll-free": 60 } },
    nowMs: at - 86_400_000,
    ...(row.window === undefined ? {} : { sendWindow: row.window }),
    ...(messages === null || PACK === undefined ? {} : { stateRules: chosenRules([PACK], messages) }),
  });
}

describe("the table itself", () => {
  it("has at least 60 rows, each state of the pack, both DST changes, sends across midnight, lists in two zones", () => {
    const rows = SEND_RULES_BOUNDARIES;
    expect(rows.length).toBeGreaterThanOrEqual(60);
    const states = new Set((PACK?.rules ?? []).map((r) => r.state));
    for (const state of states)
      expect(
        rows.some((r) => r.places?.states?.includes(state)),
        state,
      ).toBe(true);
    for (const day of ["2026-03-08", "2026-11-01"])
      expect(
        rows.some((r) => r.at.startsWith(day)),
        day,
      ).toBe(true);
    expect(rows.filter((r) => r.name.includes("midnight")).length).toBeGreaterThanOrEqual(3);
    expect(rows.some((r) => (r.places?.zones?.length ?? 0) >= 2 && r.places?.states === undefined)).toBe(
      true,
    );
    expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);
  });
});

describe("the core judges each row (src/jurisdictions/send-rules.ts)", () => {
  it.each(SEND_RULES_BOUNDARIES)("$name", (row) => {
    const at = Date.parse(row.at);
    const places =
      row.places === null ? [null] : [{ states: row.places.states ?? [], zones: row.places.zones ?? [] }];
    const where = sendPlaces(places, row.zone);
    const messages = row.messages === undefined ? "all" : row.messages;
    const rules = sendRules({
      zones: where.zones,
      states: where.states,
      ...(row.window === undefined ? {} : { policyWindow: row.window }),
      ...(messages === null || PACK === undefined ? {} : { stateRules: chosenRules([PACK], messages) }),
    });
    expect(judgeSend(rules, at, at + row.minutes * MINUTE).breaches.map(entry)).toEqual(row.send);
    expect(judgeSend(rules, at, at).breaches.map(entry)).toEqual(row.start);
    const fits = startsThatFit(rules, at, row.minutes * MINUTE, row.zone);
    expect(fits === null ? null : clock(fits.latestMs, row.zone)).toBe(row.latest);
  });
});

describe("lint's quiet hours judge each row's start in every zone of its places (the federal hours)", () => {
  it.each(SEND_RULES_BOUNDARIES)("$name", (row) => {
    const policy = policyOf(row);
    const found = quietHoursRule(projectOf(row), {
      now: null,
      ...(policy.places === undefined ? {} : { places: policy.places }),
    });
    const federal = row.start.filter((e) => !nonFederal(e));
    expect(found.map((d) => d.code)).toEqual(federal.length === 0 ? [] : ["lint.quiet-hours"]);
    const [first] = federal;
    if (first !== undefined) {
      const [, zone, time] = first.split(" ");
      expect(found[0]?.message).toContain(`${time}`);
      expect(found[0]?.message).toContain(`${zone}`);
    }
  });
});

describe("the policy judges each row's start offline, as validate does", () => {
  it.each(SEND_RULES_BOUNDARIES)("$name", (row) => {
    const spec = projectOf(row);
    const found = policyViolations(policyOf(row), spec, { now: null, estimatedCostCents: null });
    const expected = row.start.filter(nonFederal);
    expect(found.map((d) => d.code)).toEqual(expected.map(codeOf));
    expected.forEach((e, i) => {
      const [, zone, time] = e.split(" ");
      expect(found[i]?.message).toContain(`${time}`);
      expect(found[i]?.message).toContain(`in ${zone} it is outside`);
      expect(found[i]?.range).toEqual(spec.locate(["schedule", "at"]));
    });
  });
});

describe("the policy judges each row's whole send, as plan does after forecasting", () => {
  it.each(SEND_RULES_BOUNDARIES)("$name", (row) => {
    const spec = projectOf(row);
    const at = Date.parse(row.at);
    const facts = { ...offlineFacts(spec), span: { startMs: at, endMs: at + row.minutes * MINUTE } };
    const found = windowViolations(policyOf(row), spec, facts, new Date(at - 86_400_000));
    const expected = row.send.filter(nonFederal);
    expect(found.map((d) => d.code)).toEqual(expected.map(codeOf));
    for (const d of found) {
      if (row.latest === null) expect(d.hint).toContain("no start that day");
      else {
        expect(d.hint).toContain(` and ${row.latest} `);
        expect(d.fixes?.[0]?.text).toMatch(new RegExp(`T${row.latest}:00[-+]\\d\\d:\\d\\d$`));
      }
    }
  });
});

describe("the forecast judges each row's whole send, and its JSON says the same", () => {
  it.each(SEND_RULES_BOUNDARIES)("$name", (row) => {
    const f = forecastOf(row);
    const p = f.projects[0];
    expect((p?.quietHours?.breaches ?? []).map(entry)).toEqual(row.send);
    expect(f.diagnostics.filter((d) => d.code === "forecast.quiet-hours").length).toBe(
      row.send.length === 0 ? 0 : 1,
    );
    const json = forecastJson(f).projects[0];
    expect(
      (json?.quiet_hours?.breaches ?? []).map(
        (b) => `${b.rule ?? b.window} ${b.zone} ${b.local.split(" ")[2]}`,
      ),
    ).toEqual(row.send);
    if (row.send.length > 0)
      expect(
        json?.quiet_hours?.latest_start === null
          ? null
          : clock(Date.parse(json?.quiet_hours?.latest_start ?? ""), row.zone),
      ).toBe(row.latest);
  });
});

describe("the gallery's timeline draws each row's quiet hours from the forecast", () => {
  it.each(SEND_RULES_BOUNDARIES)("$name", (row) => {
    const f = forecastJson(forecastOf(row));
    const r = buildTimeline(f).brands[0]?.rows[0];
    expect((r?.quiet.length ?? 0) > 0).toBe(row.send.length > 0);
    expect(r?.quietHours?.windows.length ?? 0).toBe(row.send.length);
    row.send.forEach((e, i) => {
      const [source, zone, time] = e.split(" ");
      const words = r?.quietHours?.windows[i] ?? "";
      expect(words).toContain(` in ${zone} from `);
      expect(words).toContain(` ${time} `);
      if (source !== "federal" && source !== "policy") expect(words).toContain(`rule ${source} `);
    });
    if (row.send.length > 0 && row.latest !== null)
      expect(r?.quietHours?.latestStart?.local).toContain(` ${row.latest} `);
    expect(forecastTimelineHtml(f).includes(`<span class="tl-quiet"`)).toBe(row.send.length > 0);
  });
});
