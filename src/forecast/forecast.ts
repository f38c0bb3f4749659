/**
 * plan + declared capacity -> timeline per project and brand (design.md "Layout"). Pure: the clock
 * is the input's. Projects are grouped by brand; each brand's timeline runs under its daily cap in
 * the order its projects send (brand-timeline.ts); then each project's hours in its zone, its cost
 * and the diagnostics (diagnostics.ts).
 */

import { judgeSend, type SendRules, sendRules, startsThatFit } from "../jurisdictions/index.js";
import { pacificDayOf } from "../text/pacific-day.js";
import { DEFAULT_SEND_WINDOW } from "../text/send-window.js";
import { type DayShare, type Lane, type LaneResult, runBrand } from "./brand-timeline.js";
import { dailyCapOf } from "./capacity.js";
import { costLines } from "./costs.js";
import { forecastFindings } from "./diagnostics.js";
import { localTime } from "./local-hours.js";
import type { BrandDay, Forecast, ForecastInput, ForecastProject, ProjectForecast } from "./types.js";

const NO_BRAND = "\u0000";

export function forecast(input: ForecastInput): Forecast {
  const { capacity, nowMs } = input;
  const window = input.sendWindow ?? DEFAULT_SEND_WINDOW;
  const groups = new Map<string, number[]>();
  input.projects.forEach((p, i) => {
    const key = p.brand ?? NO_BRAND;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [i]);
    else group.push(i);
  });
  const results: LaneResult[] = new Array(input.projects.length);
  const caps: (number | null)[] = new Array(input.projects.length);
  const brandDays: BrandDay[] = [];
  for (const [brand, indexes] of groups) {
    // Every name any project of the brand goes by: a cap under any of them holds (the strictest).
    const names = indexes.flatMap((i) => input.projects[i]?.brandNames ?? []);
    const cap = brand === NO_BRAND ? null : dailyCapOf(capacity, [brand, ...names]);
    const lanes = indexes.map((i) => laneOf(input.projects[i] as ForecastProject, input));
    const run = runBrand(lanes, cap, nowMs);
    indexes.forEach((i, k) => {
      results[i] = run.results[k] as LaneResult;
      caps[i] = cap;
    });
    if (brand !== NO_BRAND) brandDays.push(...run.days.map((d) => brandDay(brand, cap, d)));
  }
  const rulesOf = sendRulesOf(input);
  const projects = input.projects.map((p, i) =>
    projectForecast(p, results[i] as LaneResult, caps[i] ?? null, input, rulesOf),
  );
  const findings = forecastFindings(input.projects, projects, input.bypassForbidden === true);
  return {
    nowMs,
    capacity,
    sendWindow: window,
    projects,
    brandDays,
    // A live send the run does not describe takes its share of the cap, not of the run's cost.
    costs: costLines(projects.filter((_, i) => input.projects[i]?.external !== true)),
    findings,
    diagnostics: findings.map((f) => f.diagnostic),
  };
}

/** Messages per minute of a project: its channel's segments per minute over its segments. */
export function messagesPerMinute(p: ForecastProject, input: ForecastInput): number {
  return input.capacity.throughput[p.channel ?? "10dlc"] / Math.max(1, p.segmentsPerMessage);
}

function laneOf(p: ForecastProject, input: ForecastInput): Lane {
  const sent = p.sent ?? 0;
  return {
    address: p.address,
    startMs: p.startMs,
    ratePerMs: messagesPerMinute(p, input) / 60_000,
    remaining: Math.max(0, p.recipients - sent),
    bypass: p.dailyCapBypass,
    sentToday: p.sentToday ?? 0,
  };
}

function projectForecast(
  p: ForecastProject,
  r: LaneResult,
  cap: number | null,
  input: ForecastInput,
  rulesOf: (p: ForecastProject) => SendRules,
): ProjectForecast {
  const sent = Math.min(p.recipients, Math.round((p.sent ?? 0) + r.sent));
  const left = p.recipients - sent;
  const paused = r.paused && left > 0;
  const rate = messagesPerMinute(p, input);
  const estimate = p.estimatedCostCents ?? null;
  const finishMs = paused ? null : r.endMs;
  const deadline = p.deadlineMs ?? null;
  const hours = quietHoursOf(p, r, rulesOf(p), rate);
  return {
    address: p.address,
    organization: p.organization,
    brand: p.brand,
    dailyCap: cap,
    bypass: p.dailyCapBypass,
    timezone: p.timezone,
    recipients: p.recipients,
    messagesPerMinute: rate,
    startMs: r.beganMs,
    finishMs,
    pause: paused ? pauseOf(r.endMs, left) : null,
    sent,
    overCap: Math.round(r.overCap),
    localStart: localTime(r.beganMs, p.timezone),
    localEnd: localTime(r.endMs, p.timezone),
    zones: hours.zones,
    quietHours: hours.quietHours,
    deadlineMs: deadline,
    meetsDeadline: deadline === null ? null : finishMs !== null && finishMs <= deadline,
    estimatedCostCents: estimate,
    projectedCostCents:
      estimate === null ? null : p.recipients === 0 ? estimate : Math.round((estimate * sent) / p.recipients),
  };
}

function pauseOf(atMs: number, recipientsLeft: number): ProjectForecast["pause"] {
  const day = pacificDayOf(atMs);
  return { atMs, pacificDay: day.day, restartFromMs: day.endMs, recipientsLeft };
}

/**
 * The one send window of each project (see quietHoursOf), made once per set of recipients' zones
 * and states: the policy's window and state rules are the whole forecast's.
 */
function sendRulesOf(input: ForecastInput): (p: ForecastProject) => SendRules {
  const made = new Map<string, SendRules>();
  return (p) => {
    const zones = p.recipientZones ?? [p.timezone];
    const key = `${zones.join(" ")}|${p.recipientStates?.join(" ") ?? ""}`;
    let rules = made.get(key);
    if (rules === undefined) {
      rules = sendRules({
        zones,
        ...(p.recipientStates === undefined ? {} : { states: p.recipientStates }),
        ...(input.sendWindow === undefined ? {} : { policyWindow: input.sendWindow }),
        ...(input.stateRules === undefined ? {} : { stateRules: input.stateRules }),
      });
      made.set(key, rules);
    }
    return rules;
  };
}

/**
 * The send from its start to its finish or cap pause judged by the one send window
 * (src/jurisdictions/send-rules.ts) in every zone its recipients live in: the stretches outside it
 * (one instant for a send of no length that starts outside), the windows it leaves, and the starts
 * of its day that would keep it inside.
 */
function quietHoursOf(
  p: ForecastProject,
  r: LaneResult,
  rules: SendRules,
  rate: number,
): Pick<ProjectForecast, "zones" | "quietHours"> {
  const judged = judgeSend(rules, r.beganMs, r.endMs);
  const first = judged.breaches[0];
  if (first === undefined) return { zones: rules.zones, quietHours: null };
  const outsideMs = judged.outside.reduce((sum, [lo, hi]) => sum + hi - lo, 0);
  return {
    zones: rules.zones,
    quietHours: {
      fromMs: first.fromMs,
      messages: Math.ceil((outsideMs / 60_000) * rate),
      spans:
        judged.outside.length === 0
          ? [{ fromMs: first.fromMs, toMs: first.fromMs }]
          : judged.outside.map(([a, b]) => ({ fromMs: a, toMs: b })),
      breaches: judged.breaches,
      fits: startsThatFit(rules, r.beganMs, r.endMs - r.beganMs, p.timezone),
    },
  };
}

function brandDay(brand: string, cap: number | null, d: DayShare): BrandDay {
  const shares = [...d.messages].map(([address, n]) => ({
    address,
    messages: Math.round(n),
    overCap: Math.round(d.overCap.get(address) ?? 0),
  }));
  return {
    brand,
    pacificDay: d.day,
    startMs: d.startMs,
    endMs: d.endMs,
    dailyCap: cap,
    total: shares.reduce((sum, s) => sum + s.messages, 0),
    shares,
  };
}
