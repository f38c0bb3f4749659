/**
 * plan + declared capacity -> timeline per project and brand (design.md "Layout"). Pure: the clock
 * is the input's. Projects are grouped by brand; each brand's timeline runs under its daily cap in
 * the order its projects send (brand-timeline.ts); then each project's hours in its zone, its cost
 * and the diagnostics (diagnostics.ts).
 */

import { DEFAULT_SEND_WINDOW } from "../text/send-window.js";
import { type DayShare, type Lane, type LaneResult, runBrand } from "./brand-timeline.js";
import { dailyCapOf } from "./capacity.js";
import { costLines } from "./costs.js";
import { forecastFindings } from "./diagnostics.js";
import { localTime, quietHours } from "./local-hours.js";
import { pacificDayOf } from "./pacific.js";
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
  const projects = input.projects.map((p, i) =>
    projectForecast(p, results[i] as LaneResult, caps[i] ?? null, input, window),
  );
  const findings = forecastFindings(input.projects, projects, window, input.bypassForbidden === true);
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
  window: ForecastInput["sendWindow"] & object,
): ProjectForecast {
  const sent = Math.min(p.recipients, Math.round((p.sent ?? 0) + r.sent));
  const left = p.recipients - sent;
  const paused = r.paused && left > 0;
  const quiet = quietHours(r.beganMs, r.endMs, p.timezone, window);
  const rate = messagesPerMinute(p, input);
  const estimate = p.estimatedCostCents ?? null;
  const finishMs = paused ? null : r.endMs;
  const deadline = p.deadlineMs ?? null;
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
    pause: paused
      ? {
          atMs: r.endMs,
          pacificDay: pacificDayOf(r.endMs).day,
          restartFromMs: pacificDayOf(r.endMs).endMs,
          recipientsLeft: left,
        }
      : null,
    sent,
    overCap: Math.round(r.overCap),
    localStart: localTime(r.beganMs, p.timezone),
    localEnd: localTime(r.endMs, p.timezone),
    quietHours: quiet && {
      fromMs: quiet.fromMs,
      messages: Math.ceil((quiet.ms / 60_000) * rate),
      spans: quiet.spans.map(([fromMs, toMs]) => ({ fromMs, toMs })),
    },
    deadlineMs: deadline,
    meetsDeadline: deadline === null ? null : finishMs !== null && finishMs <= deadline,
    estimatedCostCents: estimate,
    projectedCostCents:
      estimate === null ? null : p.recipients === 0 ? estimate : Math.round((estimate * sent) / p.recipients),
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
