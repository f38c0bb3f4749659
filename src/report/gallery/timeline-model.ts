/**
 * The gallery's forecast timeline, as data: from a forecast in its JSON form (what a plan document's
 * `forecast` holds, `schemas/forecast.schema.json`), the Pacific days to draw (every day a project
 * sends in, pauses in or has its deadline in; the days between with none of these collapse into one
 * gap), and per brand its cap, each day's count of the cap and one row per project: where its bar
 * runs, where the cap pauses it, its deadline and its quiet-hours portions, as percentages of the
 * timeline's width, with the words that say the same. Every instant comes from the forecast, the
 * quiet-hours portions and the send window too (nothing is computed again); no clock is read. Pure.
 */
import { DateTime } from "luxon";
import type { ForecastJson } from "../../forecast/json.js";
import { CAP_ZONE, pacificDayOf } from "../../text/pacific-day.js";
import { count } from "../forecast-words.js";

type ProjectJson = ForecastJson["projects"][number];

/** The width of a collapsed run of days, in days. */
export const GAP_WEIGHT = 0.4;
const DAY_MS = 86_400_000;

/**
 * A column of the timeline: one Pacific day (midnight to midnight in America/Los_Angeles, 23 or 25
 * hours on the DST days), or a run of days with nothing to draw (`days` of them). Invariants:
 * columns are contiguous (`endMs` of one is `startMs` of the next), every boundary is a Pacific
 * midnight, and `leftPct` plus `widthPct` of the last is 100.
 */
export type TimelineColumn =
  | {
      readonly kind: "day";
      /** `YYYY-MM-DD`, the Pacific day. */
      readonly day: string;
      /** `Mon, Dec 7`. */
      readonly label: string;
      readonly startMs: number;
      readonly endMs: number;
      readonly hours: number;
      /** Its midnight in the Pacific zone and in UTC: `00:00 PST`, `08:00 UTC`. */
      readonly midnightPacific: string;
      readonly midnightUtc: string;
      readonly weight: number;
      readonly leftPct: number;
      readonly widthPct: number;
    }
  | {
      readonly kind: "gap";
      readonly days: number;
      readonly startMs: number;
      readonly endMs: number;
      readonly weight: number;
      readonly leftPct: number;
      readonly widthPct: number;
    };

/** A brand's count of one drawn Pacific day. `full` when it reached the cap. */
export interface TimelineDayCount {
  readonly day: string;
  /** `30 of 30`, `45 of 30, 15 over the cap`, `12 sent, no cap`, `none sent`. */
  readonly text: string;
  readonly full: boolean;
  /** The projects' shares, `gotv-reminder 30`. */
  readonly shares: readonly string[];
}

/** A span of a row's track, from and to, in percent of the timeline's width from its left. */
export interface TimelineSpan {
  readonly fromPct: number;
  readonly toPct: number;
}

/** A time in words: in the row's zone (`2026-12-07 10:00 CST`) and in UTC (`2026-12-07 16:00 UTC`). */
export interface TimelineTime {
  readonly local: string;
  readonly utc: string;
  /** ISO 8601 in UTC, for `<time datetime>`. */
  readonly iso: string;
}

/** One project's row. Invariant: `pause` is set iff it pauses at the cap (then `finish` is null). */
export interface TimelineRow {
  readonly address: string;
  readonly recipients: number;
  readonly messagesPerMinute: number;
  readonly timezone: string;
  readonly start: TimelineTime;
  readonly finish: TimelineTime | null;
  /** From its start to its finish or pause. */
  readonly bar: TimelineSpan;
  readonly pause: {
    readonly at: TimelineTime;
    readonly atPct: number;
    readonly pacificDay: string;
    readonly recipientsLeft: number;
    /** The next Pacific midnight: the earliest a restart (a dashboard step) sends again. */
    readonly restartFrom: TimelineTime;
    /** From the pause to `restartFrom`: paused. */
    readonly paused: TimelineSpan;
    /** `paused at the cap, 8 of 38 left, restart is a dashboard step`. */
    readonly text: string;
  } | null;
  readonly deadline: {
    readonly at: TimelineTime;
    readonly atPct: number;
    readonly met: boolean | null;
  } | null;
  /** The parts of the bar outside the send window; empty when it sends in hours only. */
  readonly quiet: readonly TimelineSpan[];
  /**
   * When it sends outside the one send window: from when, about how many messages, each window it
   * leaves in words (the federal hours, the policy's window, a state's rule with its citation; the
   * zone and the local time), and the latest start of its day that keeps it inside (null: none).
   */
  readonly quietHours: {
    readonly from: TimelineTime;
    readonly messages: number;
    readonly windows: readonly string[];
    readonly latestStart: TimelineTime | null;
  } | null;
  /** Every zone its send window was judged in (its recipients' zones). */
  readonly zones: readonly string[];
  readonly overCap: number;
  /** The row in one sentence (the track's text equivalent). */
  readonly summary: string;
}

/** One brand's group: its cap, its count per drawn day (in column order), its rows by start. */
export interface TimelineBrand {
  /** Null: projects without a brand (no cap counts them). */
  readonly brand: string | null;
  readonly dailyCap: number | null;
  /** Per column: the day's count, or null for a gap. */
  readonly days: readonly (TimelineDayCount | null)[];
  readonly rows: readonly TimelineRow[];
}

export interface Timeline {
  readonly columns: readonly TimelineColumn[];
  /** The sum of the columns' weights (days, a gap counting {@link GAP_WEIGHT}). */
  readonly weight: number;
  readonly brands: readonly TimelineBrand[];
  readonly throughput: { readonly "10dlc": number; readonly "toll-free": number };
  /** The send window the forecast read quiet hours against. */
  readonly sendWindow: ForecastJson["send_window"];
}

const ms = (iso: string): number => Date.parse(iso);
const round = (n: number): number => Math.round(n * 10_000) / 10_000;

/** `2026-12-07 16:00 UTC`. */
export function utcText(at: number): string {
  return `${new Date(Math.floor(at / 60_000) * 60_000).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** `2026-12-07 10:00 CST` in `zone`; the UTC text when the zone is unknown. */
function localText(at: number, zone: string): string {
  const t = DateTime.fromMillis(Math.floor(at / 60_000) * 60_000, { zone });
  return t.isValid ? t.setLocale("en-US").toFormat("yyyy-MM-dd HH:mm ZZZZ") : utcText(at);
}

function timeOf(at: number, zone: string, local?: string): TimelineTime {
  return { local: local ?? localText(at, zone), utc: utcText(at), iso: new Date(at).toISOString() };
}

/** Where the row stops sending: its finish or its pause. */
const endOf = (p: ProjectJson): number => ms(p.finish ?? p.pause?.at ?? p.start);

/** The Pacific days to draw, in order. */
function daysToDraw(f: ForecastJson): string[] {
  const days = new Set<string>();
  for (const d of f.brand_days) days.add(d.pacific_day);
  for (const p of f.projects) {
    const end = endOf(p);
    for (let at = ms(p.start); ; ) {
      const day = pacificDayOf(at);
      days.add(day.day);
      if (day.endMs > end) break;
      at = day.endMs;
    }
    if (p.deadline !== null) days.add(pacificDayOf(ms(p.deadline)).day);
  }
  return [...days].sort();
}

function pacificDay(day: string): { startMs: number; endMs: number } {
  const start = DateTime.fromISO(day, { zone: CAP_ZONE }).startOf("day");
  return { startMs: start.toMillis(), endMs: start.plus({ days: 1 }).toMillis() };
}

/** The columns: the days to draw, a gap between two that are not consecutive. */
function columnsOf(days: readonly string[]): { columns: TimelineColumn[]; weight: number } {
  type Draft =
    | { kind: "day"; day: string; startMs: number; endMs: number }
    | { kind: "gap"; days: number; startMs: number; endMs: number };
  const drafts: Draft[] = [];
  for (const day of days) {
    const { startMs, endMs } = pacificDay(day);
    const previous = drafts.at(-1);
    if (previous !== undefined && previous.endMs < startMs)
      drafts.push({
        kind: "gap",
        days: Math.round((startMs - previous.endMs) / DAY_MS),
        startMs: previous.endMs,
        endMs: startMs,
      });
    drafts.push({ kind: "day", day, startMs, endMs });
  }
  const weightOf = (d: Draft): number => (d.kind === "day" ? 1 : GAP_WEIGHT);
  const weight = drafts.reduce((sum, d) => sum + weightOf(d), 0);
  let left = 0;
  const columns = drafts.map((d): TimelineColumn => {
    const w = weightOf(d);
    const place = { weight: w, leftPct: round((left / weight) * 100), widthPct: round((w / weight) * 100) };
    left += w;
    if (d.kind === "gap") return { ...d, ...place };
    const midnight = DateTime.fromMillis(d.startMs, { zone: CAP_ZONE }).setLocale("en-US");
    return {
      ...d,
      label: midnight.toFormat("ccc, LLL d"),
      hours: Math.round((d.endMs - d.startMs) / 3_600_000),
      midnightPacific: midnight.toFormat("HH:mm ZZZZ"),
      midnightUtc: `${new Date(d.startMs).toISOString().slice(11, 16)} UTC`,
      ...place,
    };
  });
  return { columns, weight };
}

/** Percent of the timeline's width at instant `at` (clamped to the drawn range). */
function percentAt(columns: readonly TimelineColumn[], weight: number, at: number): number {
  let left = 0;
  for (const c of columns) {
    if (at < c.endMs || c === columns.at(-1)) {
      const within = Math.min(1, Math.max(0, (at - c.startMs) / (c.endMs - c.startMs)));
      return round(((left + within * c.weight) / weight) * 100);
    }
    left += c.weight;
  }
  return 0;
}

/** The count of the cap in words. */
function dayCount(
  day: ForecastJson["brand_days"][number] | undefined,
  cap: number | null,
): Omit<TimelineDayCount, "day"> {
  if (day === undefined) return { text: "none sent", full: false, shares: [] };
  const shares = day.shares.map((s) => `${s.address} ${count(s.messages)}`);
  if (cap === null) return { text: `${count(day.total)} sent, no cap`, full: false, shares };
  const over = day.total - cap;
  return {
    text: `${count(day.total)} of ${count(cap)}${over > 0 ? `, ${count(over)} over the cap` : ""}`,
    full: day.total >= cap,
    shares,
  };
}

function rowOf(p: ProjectJson, place: (at: number) => number, cap: number | null): TimelineRow {
  const zone = p.timezone;
  const startMs = ms(p.start);
  const endMs = endOf(p);
  const start = timeOf(startMs, zone, p.local_start);
  const finish = p.finish === null ? null : timeOf(ms(p.finish), zone, p.local_end);
  const span = (from: number, to: number): TimelineSpan => {
    const fromPct = place(from);
    return { fromPct, toPct: Math.max(fromPct, place(to)) };
  };
  const pause =
    p.pause === null
      ? null
      : {
          at: timeOf(ms(p.pause.at), zone, p.local_end),
          atPct: place(ms(p.pause.at)),
          pacificDay: p.pause.pacific_day,
          recipientsLeft: p.pause.recipients_left,
          restartFrom: timeOf(ms(p.pause.restart_from), zone),
          paused: span(ms(p.pause.at), ms(p.pause.restart_from)),
          text: `paused at the cap, ${count(p.pause.recipients_left)} of ${count(p.recipients)} left, restart is a dashboard step`,
        };
  const deadline =
    p.deadline === null
      ? null
      : { at: timeOf(ms(p.deadline), zone), atPct: place(ms(p.deadline)), met: p.meets_deadline };
  // The forecast's own stretches outside its send window: never computed again here.
  const quietSpans = (p.quiet_hours?.spans ?? []).map((q) => [ms(q.from), ms(q.to)] as const);
  const quietHours =
    p.quiet_hours === null
      ? null
      : {
          from: timeOf(ms(p.quiet_hours.from), zone),
          messages: p.quiet_hours.messages,
          windows: p.quiet_hours.breaches.map(windowWords),
          latestStart:
            p.quiet_hours.latest_start === null ? null : timeOf(ms(p.quiet_hours.latest_start), zone),
        };
  const parts = [
    `${p.address}: ${count(p.recipients)} recipients at ${count(Math.round(p.messages_per_minute))} a minute`,
    `starts ${start.local} (${start.utc})`,
  ];
  if (finish !== null) parts.push(`finishes ${finish.local} (${finish.utc})`);
  if (pause !== null)
    parts.push(
      `${pause.text} (at ${pause.at.local}, ${pause.at.utc}; the cap of ${cap === null ? "its brand" : count(cap)} of Pacific day ${pause.pacificDay}; it can send again from ${pause.restartFrom.local}, ${pause.restartFrom.utc})`,
    );
  if (p.over_cap > 0) parts.push(`${count(p.over_cap)} over the cap (daily_cap_bypass)`);
  if (quietHours !== null)
    parts.push(
      `in quiet hours from ${quietHours.from.local} (${quietHours.from.utc}), about ${count(quietHours.messages)} messages: outside ${quietHours.windows.join("; ")}; ${quietHours.latestStart === null ? "no start that day keeps it inside" : `the latest start that keeps it inside is ${quietHours.latestStart.local}`}`,
    );
  if (deadline !== null)
    parts.push(
      `deadline ${deadline.at.local} (${deadline.at.utc})${deadline.met === true ? ": met" : deadline.met === false ? ": not met" : ""}`,
    );
  return {
    address: p.address,
    recipients: p.recipients,
    messagesPerMinute: p.messages_per_minute,
    timezone: zone,
    start,
    finish,
    bar: span(startMs, endMs),
    pause,
    deadline,
    quiet: quietSpans.map(([a, b]) => span(a, b)),
    quietHours,
    zones: p.zones,
    overCap: p.over_cap,
    summary: `${parts.join("; ")}.`,
  };
}

/**
 * A window a send leaves, in words, from the forecast's breach: `Florida's rule FL-hours (08:00-20:00;
 * Fla. Stat. § 501.616(6)(a)) in America/New_York from Mon 2026-12-07 20:00 EST`.
 */
export function windowWords(b: NonNullable<ProjectJson["quiet_hours"]>["breaches"][number]): string {
  const what =
    b.window === "federal"
      ? `the federal hours ${b.hours ?? ""}`
      : b.window === "policy"
        ? `the policy's send_window ${b.hours ?? ""}`
        : `${b.state ?? ""} rule ${b.rule ?? ""} (${b.hours ?? "no messages that day"}; ${b.citation ?? ""})`;
  return `${what} in ${b.zone} from ${b.local}`;
}

/** The timeline of `f`, with the send window and quiet hours the forecast judged (`f.send_window`). */
export function buildTimeline(f: ForecastJson): Timeline {
  const { columns, weight } = columnsOf(daysToDraw(f));
  const place = (at: number): number => percentAt(columns, weight, at);
  const groups = new Map<string | null, ProjectJson[]>();
  for (const p of f.projects) groups.set(p.brand, [...(groups.get(p.brand) ?? []), p]);
  const brands = [...groups].map(([brand, projects]): TimelineBrand => {
    const brandDays = f.brand_days.filter((d) => d.brand === brand);
    const dailyCap = brandDays[0]?.daily_cap ?? projects.find((p) => p.daily_cap !== null)?.daily_cap ?? null;
    const rows = [...projects]
      .sort((a, b) => ms(a.start) - ms(b.start))
      .map((p) => rowOf(p, place, dailyCap));
    return {
      brand,
      dailyCap,
      days: columns.map((c) =>
        c.kind === "gap"
          ? null
          : {
              day: c.day,
              ...dayCount(
                brandDays.find((d) => d.pacific_day === c.day),
                dailyCap,
              ),
            },
      ),
      rows,
    };
  });
  return {
    columns,
    weight: round(weight),
    brands,
    throughput: f.capacity.throughput,
    sendWindow: f.send_window,
  };
}
