/**
 * The forecast's findings as diagnostics, warnings at the project's file position, each with the
 * fix: a finish past the deadline, a send running into quiet hours, a pause at the daily cap
 * (before the deadline), and messages past the cap under bypass. A live send no file of the run
 * describes (`external`) draws none: it only takes its share of the brand's cap. Pure.
 */

import type { SendWindow } from "../text/send-window.js";
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
  window: SendWindow,
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
      out.push({
        severity: "warning",
        code: "forecast.quiet-hours",
        message: `${f.address}: projected to send outside ${window.from}-${window.to} ${zone} from ${localTime(f.quietHours.fromMs, zone)} (about ${count(f.quietHours.messages)} messages; sending ${f.localStart} to ${f.localEnd})`,
        ...(at && { range: at }),
        hint: "start earlier, or split the list so each part finishes inside the window",
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
