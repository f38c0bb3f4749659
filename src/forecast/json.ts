/**
 * A forecast as JSON (`schemas/forecast.schema.json`): instants as ISO 8601 in UTC, every key always
 * present (null where unknown), diagnostics in the one diagnostic shape. The plan document and
 * `plan --json` embed it as their `forecast` member (the judge, src/plan/judge.ts, puts it there),
 * and views read it as it is: nothing is parsed or computed again. Pure.
 */
import { type DiagnosticJson, diagnosticJson } from "../diagnostics/json.js";
import { type Breach, FEDERAL_WINDOW, localText } from "../jurisdictions/index.js";
import { windowText } from "../text/send-window.js";
import type { Forecast, ProjectForecast } from "./types.js";

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export interface ForecastJson {
  readonly now: string;
  /** The send window quiet hours were judged by, local `HH:MM` each. */
  readonly send_window: { readonly from: string; readonly to: string };
  readonly capacity: {
    readonly brands: Readonly<Record<string, number | null>>;
    readonly default_daily_cap: number | null;
    readonly throughput: { readonly "10dlc": number; readonly "toll-free": number };
  };
  readonly projects: readonly ReturnType<typeof projectJson>[];
  readonly brand_days: readonly {
    readonly brand: string;
    readonly pacific_day: string;
    readonly start: string;
    readonly end: string;
    readonly daily_cap: number | null;
    readonly total: number;
    readonly shares: readonly {
      readonly address: string;
      readonly messages: number;
      readonly over_cap: number;
    }[];
  }[];
  readonly costs: {
    readonly organizations: readonly {
      readonly organization: string;
      readonly estimated_cost_cents: number | null;
      readonly projected_cost_cents: number | null;
    }[];
    readonly total: {
      readonly estimated_cost_cents: number | null;
      readonly projected_cost_cents: number | null;
    };
  };
  readonly diagnostics: readonly DiagnosticJson[];
}

function projectJson(p: ProjectForecast) {
  return {
    address: p.address,
    organization: p.organization,
    brand: p.brand ?? null,
    daily_cap: p.dailyCap,
    daily_cap_bypass: p.bypass,
    timezone: p.timezone,
    recipients: p.recipients,
    messages_per_minute: Math.round(p.messagesPerMinute * 1000) / 1000,
    start: iso(p.startMs),
    finish: isoOrNull(p.finishMs),
    local_start: p.localStart,
    local_end: p.localEnd,
    zones: p.zones,
    pause:
      p.pause === null
        ? null
        : {
            at: iso(p.pause.atMs),
            pacific_day: p.pause.pacificDay,
            recipients_left: p.pause.recipientsLeft,
            restart_from: iso(p.pause.restartFromMs),
            restart: "dashboard" as const,
          },
    sent: p.sent,
    over_cap: p.overCap,
    quiet_hours:
      p.quietHours === null
        ? null
        : {
            from: iso(p.quietHours.fromMs),
            messages: p.quietHours.messages,
            spans: p.quietHours.spans.map((q) => ({ from: iso(q.fromMs), to: iso(q.toMs) })),
            breaches: p.quietHours.breaches.map(breachJson),
            earliest_start: p.quietHours.fits === null ? null : iso(p.quietHours.fits.earliestMs),
            latest_start: p.quietHours.fits === null ? null : iso(p.quietHours.fits.latestMs),
          },
    deadline: isoOrNull(p.deadlineMs),
    meets_deadline: p.meetsDeadline,
    estimated_cost_cents: p.estimatedCostCents,
    projected_cost_cents: p.projectedCostCents,
  };
}

/** A window the send leaves, in one zone: which window (and a state rule's citation), and from when. */
function breachJson(b: Breach) {
  const rule = b.source.kind === "state" ? b.source.rule : null;
  return {
    window: b.source.kind,
    hours:
      b.source.kind === "federal"
        ? windowText(FEDERAL_WINDOW)
        : b.source.kind === "policy"
          ? windowText(b.source.window)
          : rule?.hours === null || rule === null
            ? null
            : windowText(rule.hours),
    state: rule?.state ?? null,
    rule: rule?.id ?? null,
    citation: rule?.citation ?? null,
    link: rule?.link ?? null,
    zone: b.zone,
    from: iso(b.fromMs),
    local: localText(b.fromMs, b.zone),
  };
}

export function forecastJson(f: Forecast): ForecastJson {
  return {
    now: iso(f.nowMs),
    send_window: { from: f.sendWindow.from, to: f.sendWindow.to },
    capacity: {
      brands: f.capacity.brands,
      default_daily_cap: f.capacity.defaultDailyCap,
      throughput: {
        "10dlc": f.capacity.throughput["10dlc"],
        "toll-free": f.capacity.throughput["toll-free"],
      },
    },
    projects: f.projects.map(projectJson),
    brand_days: f.brandDays.map((d) => ({
      brand: d.brand,
      pacific_day: d.pacificDay,
      start: iso(d.startMs),
      end: iso(d.endMs),
      daily_cap: d.dailyCap,
      total: d.total,
      shares: d.shares.map((s) => ({ address: s.address, messages: s.messages, over_cap: s.overCap })),
    })),
    costs: {
      organizations: f.costs.organizations.map((o) => ({
        organization: o.organization,
        estimated_cost_cents: o.estimatedCostCents,
        projected_cost_cents: o.projectedCostCents,
      })),
      total: {
        estimated_cost_cents: f.costs.total.estimatedCostCents,
        projected_cost_cents: f.costs.total.projectedCostCents,
      },
    },
    diagnostics: f.diagnostics.map(diagnosticJson),
  };
}
