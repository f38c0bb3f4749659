/**
 * The one send window (docs/places.md): the intersection of the policy's `send_window`, the federal
 * hours (08:00-21:00, 47 CFR § 64.1200(c)(1)) and each rule in force of each state the recipients
 * live in, for that day of the week, judged in every zone they live in. Lint's quiet hours, the
 * policy's `send_window` and `jurisdictions`, the forecast's quiet hours and the gallery's timeline
 * all judge a send through this file. A send is judged from its first message to its last, as a
 * half-open stretch of time `[start, end)` (a send of no length is its start instant), and each
 * window by the one boundary rule of src/text/send-window.ts (`[from, to)`, to the millisecond).
 * Wall-clock times are each zone's own, read with luxon (DST-aware). Pure; memoized per zone and day.
 */
import { DateTime } from "luxon";
import { DEFAULT_SEND_WINDOW, type SendWindow, windowMinutes, windowText } from "../text/send-window.js";
import { FIXED_LOCALE, zoneAbbreviation, zoneNamed } from "../text/zone-offsets.js";
import { type JurisdictionRule, WEEKDAYS, type Weekday } from "./pack.js";
import { type StateCode, stateOf } from "./states.js";
import { instantOf, type LocalDay, localDayOf, offsetAt } from "./zone-days.js";

/** The federal quiet hours: no texts before 8 a.m. or from 9 p.m., the recipient's local time. */
export const FEDERAL_WINDOW: SendWindow = DEFAULT_SEND_WINDOW;
export const FEDERAL_CITATION = "47 CFR § 64.1200(c)(1)";

/** Where a window comes from: the federal hours, the policy's `send_window`, or a state's rule. */
export type WindowSource =
  | { readonly kind: "federal" }
  | { readonly kind: "policy"; readonly window: SendWindow }
  | { readonly kind: "state"; readonly rule: JurisdictionRule };

/**
 * One window of the intersection, judged in each of `zones`. `windowOn(day)`: the allowed hours of
 * that day of the week, `null` when nothing may be sent that day, `undefined` when this source does
 * not restrict that day.
 */
export interface SendConstraint {
  readonly source: WindowSource;
  readonly zones: readonly string[];
  readonly windowOn: (day: Weekday) => SendWindow | null | undefined;
}

/** The one send window of a send. Invariant: `zones` lists every zone any constraint is judged in. */
export interface SendRules {
  readonly constraints: readonly SendConstraint[];
  readonly zones: readonly string[];
}

/** What the intersection is made of for one send. */
export interface SendRulesInput {
  /** Every zone the recipients live in (the schedule's zone when nothing is declared). */
  readonly zones: readonly string[];
  /** The states they live in (declared places). */
  readonly states?: readonly StateCode[];
  /** The policy's `send_window`. */
  readonly policyWindow?: SendWindow;
  /** The state rules in force (the packs and kind the policy chose); a rule of another state is ignored. */
  readonly stateRules?: readonly JurisdictionRule[];
  /** Leave the federal hours out (lint and the policy judge them apart); default false. */
  readonly withoutFederal?: boolean;
}

/** The intersection for one send, federal hours first, then the policy's window, then the states' rules. */
export function sendRules(input: SendRulesInput): SendRules {
  const zones = [...new Set(input.zones)];
  const states = new Set(input.states ?? []);
  const every = (window: SendWindow) => () => window;
  const constraints: SendConstraint[] = [
    ...(input.withoutFederal === true
      ? []
      : [{ source: { kind: "federal" } as const, zones, windowOn: every(FEDERAL_WINDOW) }]),
    ...(input.policyWindow === undefined
      ? []
      : [
          {
            source: { kind: "policy", window: input.policyWindow } as const,
            zones,
            windowOn: every(input.policyWindow),
          },
        ]),
    ...(input.stateRules ?? [])
      .filter((rule) => states.has(rule.state))
      .map((rule) => ({
        source: { kind: "state", rule } as const,
        zones: stateOf(rule.state).zones,
        windowOn: (day: Weekday) => (rule.days.includes(day) ? rule.hours : undefined),
      })),
  ];
  return { constraints, zones: [...new Set([...zones, ...constraints.flatMap((c) => c.zones)])] };
}

/** One constraint broken in one zone: where the send first is outside it, and for how long in all. */
export interface Breach {
  readonly source: WindowSource;
  readonly zone: string;
  readonly fromMs: number;
  /** Time outside it, in ms (0 for a send of no length). */
  readonly ms: number;
}

/**
 * A send judged: every constraint it breaks in every zone (the first instant of each, in time
 * order, ties in the constraints' order), and the stretches of it outside the intersection (their
 * union, in order; none for a send of no length).
 */
export interface SendJudgement {
  readonly breaches: readonly Breach[];
  readonly outside: readonly (readonly [number, number])[];
}

/** The allowed stretches of one local day of `zone` under `constraint`, as instants. */
function allowedOnDay(
  constraint: SendConstraint,
  zone: string,
  day: LocalDay,
): readonly (readonly [number, number])[] {
  const window = constraint.windowOn(day.weekday);
  if (window === undefined) return [[day.startMs, day.endMs]];
  if (window === null) return [];
  let stretches = day.stretches.get(window);
  if (stretches === undefined) {
    const at = (m: number) => (m >= 24 * 60 ? day.endMs : instantOf(zone, day.number, m, day.date));
    stretches = windowMinutes(window).map(([a, b]) => [at(a), at(b)] as const);
    day.stretches.set(window, stretches);
  }
  return stretches;
}

/** The parts of `[startMs, endMs)` outside `constraint` in `zone`, in order. */
function outsideIn(
  constraint: SendConstraint,
  zone: string,
  startMs: number,
  endMs: number,
): [number, number][] {
  const inside: [number, number][] = [];
  for (let day = localDayOf(zone, startMs); day.startMs < endMs; day = localDayOf(zone, day.endMs))
    for (const [from, to] of allowedOnDay(constraint, zone, day)) {
      const lo = Math.max(from, startMs);
      const hi = Math.min(to, endMs);
      if (hi > lo) inside.push([lo, hi]);
    }
  inside.sort((x, y) => x[0] - y[0]);
  const outside: [number, number][] = [];
  let cursor = startMs;
  for (const [lo, hi] of inside) {
    if (lo > cursor) outside.push([cursor, lo]);
    cursor = Math.max(cursor, hi);
  }
  if (endMs > cursor) outside.push([cursor, endMs]);
  return outside;
}

/** Is the instant `atMs` inside `constraint` in `zone`? (The half-open rule, to the millisecond.) */
function insideAt(constraint: SendConstraint, zone: string, atMs: number): boolean {
  return allowedOnDay(constraint, zone, localDayOf(zone, atMs)).some(
    ([from, to]) => from <= atMs && atMs < to,
  );
}

/** The union of stretches, in order. */
function union(spans: readonly (readonly [number, number])[]): [number, number][] {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out.at(-1);
    if (last !== undefined && lo <= last[1]) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/**
 * Judges a send from `startMs` to `endMs` (its last message; `endMs <= startMs`: a send of no
 * length, judged at its start instant) against every constraint in every zone of `rules`.
 */
export function judgeSend(rules: SendRules, startMs: number, endMs: number): SendJudgement {
  const breaches: (Breach & { readonly order: number })[] = [];
  const outside: [number, number][] = [];
  rules.constraints.forEach((constraint, order) => {
    for (const zone of constraint.zones) {
      if (endMs <= startMs) {
        if (!insideAt(constraint, zone, startMs))
          breaches.push({ source: constraint.source, zone, fromMs: startMs, ms: 0, order });
        continue;
      }
      const spans = outsideIn(constraint, zone, startMs, endMs);
      const first = spans[0];
      if (first === undefined) continue;
      outside.push(...spans);
      breaches.push({
        source: constraint.source,
        zone,
        fromMs: first[0],
        ms: spans.reduce((sum, [lo, hi]) => sum + hi - lo, 0),
        order,
      });
    }
  });
  breaches.sort((a, b) => a.fromMs - b.fromMs || a.order - b.order);
  return { breaches: breaches.map(({ order: _order, ...b }) => b), outside: union(outside) };
}

/** The starts of one local day that keep a send inside: the earliest and the latest, whole minutes. */
export interface StartsThatFit {
  readonly earliestMs: number;
  readonly latestMs: number;
}

const MINUTE = 60_000;

/**
 * The starts on the local day (in `dayZone`) of `startMs` whose send of `durationMs` stays inside
 * every constraint in every zone, as whole minutes: the earliest and the latest; null when none
 * does. A send of no length may start up to a minute before a window closes.
 */
export function startsThatFit(
  rules: SendRules,
  startMs: number,
  durationMs: number,
  dayZone: string,
): StartsThatFit | null {
  const day = localDayOf(dayZone, startMs);
  const dayStart = day.startMs;
  const dayEnd = day.endMs;
  const d = Math.max(0, durationMs);
  const rangeEnd = dayEnd + d + MINUTE;
  const outside = judgeSend(rules, dayStart, rangeEnd).outside;
  let earliest = Number.POSITIVE_INFINITY;
  let latest = Number.NEGATIVE_INFINITY;
  let cursor = dayStart;
  const consider = (a: number, b: number) => {
    // Starts s in [a, b - d] (a send of no length: [a, b)), within the day.
    const last = Math.min(d === 0 ? b - 1 : b - d, dayEnd - 1);
    const first = Math.max(a, dayStart);
    const lo = Math.ceil(first / MINUTE) * MINUTE;
    const hi = Math.floor(last / MINUTE) * MINUTE;
    if (lo > hi) return;
    earliest = Math.min(earliest, lo);
    latest = Math.max(latest, hi);
  };
  for (const [lo, hi] of outside) {
    if (lo > cursor) consider(cursor, lo);
    cursor = Math.max(cursor, hi);
  }
  if (rangeEnd > cursor) consider(cursor, rangeEnd);
  return latest === Number.NEGATIVE_INFINITY ? null : { earliestMs: earliest, latestMs: latest };
}

/** `Mon-Sun` style days of a rule: `every day`, `Mon-Fri`, `Sat, Sun`, `Sun`. */
export function daysText(days: readonly Weekday[]): string {
  const title = (d: Weekday) => `${d.slice(0, 1).toUpperCase()}${d.slice(1)}`;
  if (days.length === 7) return "every day";
  const index = days.map((d) => WEEKDAYS.indexOf(d)).sort((a, b) => a - b);
  const run = index.every((v, i) => i === 0 || v === (index[i - 1] as number) + 1);
  const names = index.map((i) => title(WEEKDAYS[i] as Weekday));
  return run && names.length > 2 ? `${names[0]}-${names.at(-1)}` : names.join(", ");
}

/** A source in words, with its hours and where it comes from. */
export function sourceText(source: WindowSource): string {
  switch (source.kind) {
    case "federal":
      return `the federal quiet hours (${windowText(FEDERAL_WINDOW)}, ${FEDERAL_CITATION})`;
    case "policy":
      return `the policy's send_window ${windowText(source.window)}`;
    case "state": {
      const r = source.rule;
      const hours = r.hours === null ? "no messages" : windowText(r.hours);
      return `${stateOf(r.state).name}'s rule ${r.id} (${hours} ${daysText(r.days)}, ${r.applies_to} messages; ${r.citation}, checked ${r.checked}: ${r.link})`;
    }
  }
}

/** The short name of a source: `federal`, `policy`, or the state's code (`FL`). */
export function sourceName(source: WindowSource): string {
  return source.kind === "state" ? source.rule.state : source.kind;
}

const ABBREVIATIONS = new Map<string, string>();

/** The abbreviation of `zone` at `atMs` (`EST`), read with luxon once per zone and offset. */
function abbreviationAt(zone: string, atMs: number, offset: number): string {
  const key = `${zone}|${offset}`;
  let abbreviation = ABBREVIATIONS.get(key);
  if (abbreviation === undefined) {
    abbreviation = zoneAbbreviation(zone, atMs);
    ABBREVIATIONS.set(key, abbreviation);
  }
  return abbreviation;
}

/**
 * `Mon 2026-12-07 20:00 EST` (`20:00:01` when the seconds matter) in `zone`: from the memoized
 * offset and day, the zone's abbreviation read with luxon once per zone and offset (a forecast's
 * JSON names thousands of instants).
 */
export function localText(atMs: number, zone: string): string {
  const offset = offsetAt(zone, atMs);
  const wall = new Date(atMs + offset * 60_000).toISOString();
  const abbreviation = abbreviationAt(zone, atMs, offset);
  const day = localDayOf(zone, atMs).weekday;
  const weekday = `${day.slice(0, 1).toUpperCase()}${day.slice(1)}`;
  const time = wall.slice(17, 23) === "00.000" ? wall.slice(11, 16) : wall.slice(11, 19);
  return `${weekday} ${wall.slice(0, 10)} ${time} ${abbreviation}`;
}

/** `19:20` (`HH:mm`) in `zone`, and the ISO instant with that zone's offset (`2026-12-07T19:20:00-05:00`). */
export function startText(atMs: number, zone: string): { readonly clock: string; readonly iso: string } {
  const t = DateTime.fromMillis(atMs, { zone: zoneNamed(zone), ...FIXED_LOCALE });
  return {
    // The abbreviation memoized: luxon makes an Intl.DateTimeFormat for each `ZZZZ` it formats.
    clock: `${t.toFormat("HH:mm")} ${abbreviationAt(zone, atMs, offsetAt(zone, atMs))}`,
    iso: t.toISO({ suppressMilliseconds: true }) ?? new Date(atMs).toISOString(),
  };
}
