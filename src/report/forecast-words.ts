/** Words the forecast's views share: money, counts, a project's outcome in one phrase. Pure. */
import type { ProjectForecast } from "../forecast/types.js";

export const dollars = (cents: number | null): string =>
  cents === null
    ? "unknown"
    : `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export const count = (n: number): string => n.toLocaleString("en-US");

/** `finishes 2026-12-01 21:09 EST`, or where and with how many left it pauses at the cap. */
export function outcome(p: ProjectForecast): string {
  if (p.pause === null) return `finishes ${p.localEnd}`;
  return `pauses at the daily cap ${p.localEnd} (Pacific day ${p.pause.pacificDay}), ${count(p.pause.recipientsLeft)} of ${count(p.recipients)} left: restart in the dashboard`;
}

export function capText(cap: number | null): string {
  return cap === null ? "no cap" : `${count(cap)} a Pacific day`;
}
