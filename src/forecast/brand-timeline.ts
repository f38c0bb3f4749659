/**
 * The timeline of one brand's projects under its daily cap: a continuous simulation in the order
 * the projects send. Each project sends at a steady rate from its start; every message of the brand
 * counts against the cap of its Pacific day (live messages already sent today too); when the day's
 * count reaches the cap, every sending project without bypass pauses there (and stays paused:
 * restarting is a dashboard step), while bypass projects go on past it. The count starts again at
 * each Pacific midnight. Pure.
 */
import { pacificDayOf } from "../text/pacific-day.js";

/** One project as the timeline sees it. Invariant: `ratePerMs > 0`, `remaining >= 0`. */
export interface Lane {
  readonly address: string;
  readonly startMs: number;
  readonly ratePerMs: number;
  readonly remaining: number;
  readonly bypass: boolean;
  /** Messages it already sent in the clock's Pacific day (live projects). */
  readonly sentToday: number;
}

export interface LaneResult {
  /** When it began sending in the timeline (its start, or the clock for a live one). */
  readonly beganMs: number;
  /** When it stopped: finished (`paused` false) or paused at the cap. */
  readonly endMs: number;
  readonly paused: boolean;
  /** Messages sent in the timeline (fractional: the timeline is continuous). */
  readonly sent: number;
  readonly overCap: number;
}

export interface DayShare {
  readonly day: string;
  readonly startMs: number;
  readonly endMs: number;
  /** Messages per address, in the order they first sent that day. */
  readonly messages: Map<string, number>;
  readonly overCap: Map<string, number>;
}

const EPSILON = 1e-9;

interface State {
  readonly lane: Lane;
  /** The lane's place in the input: lanes send in this order within a round. */
  readonly index: number;
  phase: "waiting" | "sending" | "done";
  remaining: number;
  began: number;
  end: number;
  paused: boolean;
  sent: number;
  overCap: number;
}

/** Runs the brand's timeline from `nowMs` under `cap` (null: no cap). */
export function runBrand(
  lanes: readonly Lane[],
  cap: number | null,
  nowMs: number,
): { readonly results: readonly LaneResult[]; readonly days: readonly DayShare[] } {
  const states: State[] = lanes.map((lane, index) => ({
    lane,
    index,
    phase: lane.remaining <= EPSILON ? "done" : "waiting",
    remaining: lane.remaining,
    began: Math.max(lane.startMs, nowMs),
    end: Math.max(lane.startMs, nowMs),
    paused: false,
    sent: 0,
    overCap: 0,
  }));
  // The lanes still to start, by start (then input order); the lanes sending, in input order. Each
  // round looks only at these, not at every lane.
  const waiting = states
    .filter((s) => s.phase === "waiting")
    .sort((a, b) => a.began - b.began || a.index - b.index);
  let next = 0;
  let sending: State[] = [];
  // The days by their Pacific date: a send spread over thousands of days opens each in one look.
  const days = new Map<string, DayShare>();
  let t = waiting[0]?.began ?? Infinity;
  if (t === Infinity) return { results: states.map(result), days: [] };
  let day = openDay(t, days);
  let count = liveToday(lanes, day, nowMs, days);

  // Every round moves to the next event (a start, a finish, the cap, a midnight): bounded by them.
  for (let round = 0; round < 10_000_000; round++) {
    // Start every lane whose time has come; pause enforced starters when the cap is already reached.
    let started = false;
    for (let s = waiting[next]; s !== undefined && s.began <= t; s = waiting[++next]) {
      s.phase = "sending";
      s.began = t;
      if (cap !== null && count >= cap && !s.lane.bypass) pause(s, t);
      else {
        sending.push(s);
        started = true;
      }
    }
    if (started) sending.sort((a, b) => a.index - b.index);
    const nextStart = waiting[next]?.began ?? Infinity;
    if (sending.length === 0) {
      if (nextStart === Infinity) break;
      t = nextStart;
      if (t >= day.endMs) {
        day = openDay(t, days);
        count = 0;
      }
      continue;
    }
    let rate = 0;
    for (const s of sending) rate += s.lane.ratePerMs;
    // The next event as a step from t (absolute instants are too coarse for tiny steps): a start,
    // the Pacific midnight, a finish, or the cap. Whatever it is gets snapped exactly.
    const toCap = cap !== null && count < cap ? (cap - count) / rate : Infinity;
    let dt = Math.min(nextStart - t, day.endMs - t, toCap);
    for (const s of sending) dt = Math.min(dt, s.remaining / s.lane.ratePerMs);
    dt = Math.max(0, dt);
    count = sendFor(sending, dt, day, cap !== null && count >= cap, count);
    if (toCap <= dt * (1 + EPSILON)) count = cap as number;
    t = dt === day.endMs - t ? day.endMs : dt === nextStart - t ? nextStart : t + dt;
    for (const s of sending)
      if (s.remaining === 0) {
        s.phase = "done";
        s.end = t;
      }
    if (cap !== null && count >= cap)
      for (const s of sending) if (s.phase === "sending" && !s.lane.bypass) pause(s, t);
    sending = sending.filter((s) => s.phase === "sending");
    if (t >= day.endMs && (sending.length > 0 || next < waiting.length)) {
      t = day.endMs;
      day = openDay(t, days);
      count = 0;
    }
  }
  const used = [...days.values()].filter((d) => d.messages.size > 0).sort((a, b) => a.startMs - b.startMs);
  return { results: states.map(result), days: used };
}

/**
 * Live messages already sent today: in today's share, and against today's cap. The count the first
 * day starts at (`day`: the timeline's first).
 */
function liveToday(
  lanes: readonly Lane[],
  day: DayShare,
  nowMs: number,
  days: Map<string, DayShare>,
): number {
  const live = lanes.reduce((sum, l) => sum + l.sentToday, 0);
  if (live <= 0) return 0;
  const today = pacificDayOf(nowMs);
  const liveDay = day.day === today.day ? day : openDay(nowMs, days);
  for (const l of lanes) if (l.sentToday > 0) add(liveDay.messages, l.address, l.sentToday);
  return day.day === today.day ? live : 0;
}

/**
 * Every sending lane sends for `dt` ms into `day` (over the cap: `over`); a lane that finishes in
 * it has nothing left. The day's count, `count` before, after.
 */
function sendFor(sending: readonly State[], dt: number, day: DayShare, over: boolean, count: number): number {
  let sent = count;
  for (const s of sending) {
    const finishes = s.remaining / s.lane.ratePerMs <= dt * (1 + EPSILON);
    const n = finishes ? s.remaining : Math.min(s.remaining, s.lane.ratePerMs * dt);
    s.remaining -= n;
    s.sent += n;
    add(day.messages, s.lane.address, n);
    if (over) {
      s.overCap += n;
      add(day.overCap, s.lane.address, n);
    }
    sent += n;
    if (finishes) s.remaining = 0;
  }
  return sent;
}

function pause(s: State, t: number): void {
  s.phase = "done";
  s.paused = true;
  s.end = t;
}

function openDay(t: number, days: Map<string, DayShare>): DayShare {
  const p = pacificDayOf(t);
  const existing = days.get(p.day);
  if (existing) return existing;
  const d: DayShare = {
    day: p.day,
    startMs: p.startMs,
    endMs: p.endMs,
    messages: new Map(),
    overCap: new Map(),
  };
  days.set(p.day, d);
  return d;
}

function add(map: Map<string, number>, key: string, n: number): void {
  if (n <= 0) return;
  map.set(key, (map.get(key) ?? 0) + n);
}

function result(s: State): LaneResult {
  return { beganMs: s.began, endMs: s.end, paused: s.paused, sent: s.sent, overCap: s.overCap };
}
