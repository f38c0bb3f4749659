/**
 * The forecast's findings as diagnostics, warnings at the project's file position, each with the
 * fix: a finish past the deadline, a send running into quiet hours, a pause at the daily cap
 * (before the deadline), and messages past the cap under bypass. A live send no file of the run
 * describes (`external`) draws none: it only takes its share of the brand's cap. Pure.
 */

import { FEDERAL_WINDOW, sourceText, type WindowSource } from "../jurisdictions/index.js";
import { windowText } from "../text/send-window.js";
import { localTime } from "./local-hours.js";
import type { ForecastFinding, ForecastProject, ProjectForecast } from "./types.js";

/** `12,345` (Intl number formatting costs about 10 µs a call, a regular expression more in a cold process). */
export function count(n: number): string {
  const text = String(n);
  const dot = text.indexOf(".");
  const end = dot < 0 ? text.length : dot;
  const sign = text.startsWith("-") ? 1 : 0;
  let grouped = text.slice(end);
  let at = end;
  for (; at - sign > 3; at -= 3) grouped = `,${text.slice(at - 3, at)}${grouped}`;
  return text.slice(0, at) + grouped;
}

/** The findings of every project, in project order, each as a warning at its file position. */
export function forecastFindings(
  inputs: readonly ForecastProject[],
  projects: readonly ProjectForecast[],
  bypassForbidden: boolean,
): ForecastFinding[] {
  const findings: ForecastFinding[] = [];
  projects.forEach((f, i) => {
    const out: ForecastFinding["diagnostic"][] = [];
    const p = inputs[i] as ForecastProject;
    if (p.external === true) return;
    const at = p.ranges?.at ?? p.ranges?.key;
    const deadlineRange = p.ranges?.deadline ?? at;
    const zone = f.timezone;
    if (f.pause !== null) {
      const before = f.deadlineMs !== null && f.pause.atMs < f.deadlineMs;
      out.push({
        severity: "warning",
        code: "forecast.cap-pause",
        message: `${f.address}: projected to pause at the brand's daily cap of ${count(f.dailyCap ?? 0)} at ${localTime(f.pause.atMs, zone)} (Pacific day ${f.pause.pacificDay}) with ${count(f.pause.recipientsLeft)} of ${count(f.recipients)} recipients left${before ? `, before its deadline ${localTime(f.deadlineMs as number, zone)}` : ""}; restarting it is a dashboard step, from ${localTime(f.pause.restartFromMs, zone)}`,
        ...(at && { range: at }),
        hint: bypassForbidden
          ? "start earlier, split the list across Pacific days, or send from another brand's number (the policy forbids `daily_cap_bypass`)"
          : "start earlier, split the list across Pacific days, set `daily_cap_bypass: true` (messages over the cap may fail and are still billed), or send from another brand's number",
      });
    }
    if (f.finishMs !== null && f.deadlineMs !== null && f.finishMs > f.deadlineMs) {
      out.push({
        severity: "warning",
        code: "forecast.past-deadline",
        message: `${f.address}: projected to finish at ${localTime(f.finishMs, zone)}, after its deadline ${localTime(f.deadlineMs, zone)} (${count(f.recipients)} recipients at ${count(Math.round(f.messagesPerMinute))} a minute)`,
        ...(deadlineRange && { range: deadlineRange }),
        hint: "start earlier, split the list into projects on other numbers, or declare the throughput your numbers really have under `capacity.throughput`",
      });
    }
    if (f.quietHours !== null) {
      const q = f.quietHours;
      const first = q.breaches[0];
      const more = q.breaches.slice(1);
      out.push({
        severity: "warning",
        code: "forecast.quiet-hours",
        message: `${f.address}: projected to send outside ${first === undefined ? "the send window" : `${windowName(first.source)} in ${first.zone} from ${localTime(first.fromMs, first.zone)}`} (about ${count(q.messages)} messages; sending ${f.localStart} to ${f.localEnd})${more.length === 0 ? "" : `; also outside ${more.map((b) => `${windowName(b.source, true)} in ${b.zone} from ${localTime(b.fromMs, b.zone)}`).join(", ")}`}`,
        ...(at && { range: at }),
        hint:
          q.fits === null
            ? `no start that day keeps the whole send inside the window in every zone (${f.zones.join(", ")}): split the list so each part finishes inside the window`
            : `start between ${localTime(q.fits.earliestMs, zone).slice(11)} and ${localTime(q.fits.latestMs, zone).slice(11)} that day (the latest start that fits) so that the whole send stays inside the window in every zone (${f.zones.join(", ")}), or split the list so each part finishes inside it`,
      });
    }
    if (f.overCap > 0) {
      out.push({
        severity: "warning",
        code: "forecast.over-cap",
        message: `${f.address}: with daily_cap_bypass, about ${count(f.overCap)} messages are projected past the brand's daily cap of ${count(f.dailyCap ?? 0)}; they may fail and are still billed`,
        ...(at && { range: at }),
        hint: "start earlier or split the list across Pacific days to stay under the cap, or send from another brand's number",
      });
    }
    for (const diagnostic of out) findings.push({ address: f.address, diagnostic });
  });
  return findings;
}

/** A window of the one send window in a finding: `08:00-21:00`, the policy's, or a state's rule with its citation. */
function windowName(source: WindowSource, short = false): string {
  switch (source.kind) {
    case "federal":
      return `${windowText(FEDERAL_WINDOW)} (the federal quiet hours)`;
    case "policy":
      return `${windowText(source.window)} (the policy's send_window)`;
    case "state":
      return short
        ? `${source.rule.state}'s rule ${source.rule.id} (${source.rule.citation})`
        : sourceText(source);
  }
}
