/**
 * The forecast as a terminal section (`plan --forecast`): one line per project (start, finish or
 * pause with recipients left, deadline, quiet hours, over the cap), then per brand and Pacific day
 * each project's share of the cap, then the costs. Plain text; diagnostics are rendered by the
 * caller with the plan's other diagnostics. Pure.
 */
import type { Forecast } from "../forecast/types.js";
import { capText, count, dollars, outcome } from "./forecast-words.js";

export function forecastText(f: Forecast): string {
  const lines: string[] = [];
  const tp = f.capacity.throughput;
  lines.push(
    `Forecast (throughput: 10dlc ${count(tp["10dlc"])}, toll-free ${count(tp["toll-free"])} segments a minute)`,
  );
  if (f.projects.length === 0) {
    lines.push("  nothing is or will be scheduled");
    return `${lines.join("\n")}\n`;
  }
  const width = Math.max(...f.projects.map((p) => p.address.length));
  for (const p of f.projects) {
    const notes: string[] = [];
    if (p.meetsDeadline === false && p.pause === null) notes.push("past its deadline");
    if (p.quietHours !== null) notes.push(`${count(p.quietHours.messages)} in quiet hours`);
    if (p.overCap > 0) notes.push(`${count(p.overCap)} over the cap (bypass)`);
    const extra = notes.length > 0 ? `; ${notes.join("; ")}` : "";
    lines.push(
      `  ${p.address.padEnd(width)}  ${count(p.recipients)} recipients, starts ${p.localStart}, ${outcome(p)}${extra}`,
    );
  }
  for (const d of f.brandDays) {
    const shares = d.shares.map(
      (s) => `${s.address} ${count(s.messages)}${s.overCap > 0 ? ` (${count(s.overCap)} over)` : ""}`,
    );
    const of = d.dailyCap === null ? "" : ` of ${count(d.dailyCap)}`;
    lines.push(
      `  brand ${d.brand}, Pacific day ${d.pacificDay} (${capText(d.dailyCap)}): ${count(d.total)}${of}: ${shares.join(", ")}`,
    );
  }
  const orgs = f.costs.organizations.map(
    (o) => `${o.organization || "(no organization)"} ${dollars(o.projectedCostCents)}`,
  );
  lines.push(
    `  cost: projected ${dollars(f.costs.total.projectedCostCents)} of estimated ${dollars(f.costs.total.estimatedCostCents)}${orgs.length > 1 ? ` (${orgs.join(", ")})` : ""}`,
  );
  return `${lines.join("\n")}\n`;
}
