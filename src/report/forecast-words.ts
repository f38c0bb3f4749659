/** Words the forecast's views share: money, counts, a project's outcome in one phrase. Pure. */
import { count } from "../forecast/diagnostics.js";
import type { ProjectForecast } from "../forecast/types.js";

export { count };

/** `$1,234.50`; `unknown` for null. */
export const dollars = (cents: number | null): string => {
  if (cents === null) return "unknown";
  const whole = Math.floor(Math.abs(cents) / 100);
  return `${cents < 0 ? "-" : ""}$${count(whole)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`;
};

/** `finishes 2026-12-01 21:09 EST`, or where and with how many left it pauses at the cap. */
export function outcome(p: ProjectForecast): string {
  if (p.pause === null) return `finishes ${p.localEnd}`;
  return `pauses at the daily cap ${p.localEnd} (Pacific day ${p.pause.pacificDay}), ${count(p.pause.recipientsLeft)} of ${count(p.recipients)} left: restart in the dashboard`;
}

export function capText(cap: number | null): string {
  return cap === null ? "no cap" : `${count(cap)} a Pacific day`;
}
