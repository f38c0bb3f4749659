/**
 * The forecast for the Markdown comment: a plain table (for readers without Mermaid), the brand's
 * Pacific days, then a Mermaid `gantt` block (GitHub and GitLab render it): one section per brand,
 * one bar per project (`crit` when it pauses at the cap or misses its deadline), and milestones
 * for the Pacific midnights the sends cross and the deadlines. Times in the chart are UTC. Pure.
 */
import type { Forecast, ProjectForecast } from "../forecast/types.js";
import { capText, count, dollars, outcome } from "./forecast-words.js";
import { codeSpan, escapeMarkdown } from "./markdown-escape.js";

export function forecastMarkdown(f: Forecast): string {
  const out: string[] = ["#### Forecast", ""];
  if (f.projects.length === 0) return `${[...out, "Nothing is or will be scheduled."].join("\n")}\n`;
  out.push("| project | recipients | starts | finishes or pauses | deadline | projected cost |");
  out.push("| --- | ---: | --- | --- | --- | ---: |");
  for (const p of f.projects) {
    const deadline =
      p.meetsDeadline === null
        ? ""
        : p.meetsDeadline
          ? "met"
          : p.pause === null
            ? "**missed**"
            : "**not met (paused)**";
    out.push(
      `| ${codeSpan(p.address, true)} | ${count(p.recipients)} | ${escapeMarkdown(p.localStart)} | ${escapeMarkdown(outcome(p))}${p.overCap > 0 ? `; ${count(p.overCap)} over the cap` : ""}${p.quietHours ? `; ${count(p.quietHours.messages)} in quiet hours` : ""} | ${deadline} | ${dollars(p.projectedCostCents)} |`,
    );
  }
  out.push("");
  for (const d of f.brandDays) {
    const shares = d.shares.map((s) => `${codeSpan(s.address)} ${count(s.messages)}`).join(", ");
    out.push(
      `- ${escapeMarkdown(d.brand)}, Pacific day ${d.pacificDay} (${capText(d.dailyCap)}): ${count(d.total)} messages: ${shares}`,
    );
  }
  out.push(
    `- Cost: projected ${dollars(f.costs.total.projectedCostCents)} of estimated ${dollars(f.costs.total.estimatedCostCents)}`,
    "",
    "```mermaid",
    forecastGantt(f),
    "```",
  );
  return `${out.join("\n")}\n`;
}

const MINUTE = 60_000;
/** `YYYY-MM-DD HH:mm` in UTC (the chart's `dateFormat`). */
const at = (ms: number): string =>
  new Date(Math.floor(ms / MINUTE) * MINUTE).toISOString().slice(0, 16).replace("T", " ");
/** A task or section name: Mermaid ends a name at `:` and a statement at `;`, and reads `#` as a comment. */
const label = (text: string): string =>
  text
    .replace(/[:;#\n\r]/g, " ")
    .replace(/\s+/g, " ")
    .trim() || "-";

/** The Mermaid gantt source (without the fence). */
export function forecastGantt(f: Forecast): string {
  const lines = [
    "gantt",
    "  title Forecast (times UTC)",
    "  dateFormat YYYY-MM-DD HH:mm",
    "  axisFormat %m-%d %H:%M",
  ];
  const brands = new Map<string, ProjectForecast[]>();
  for (const p of f.projects) {
    const key = p.brand ?? "no brand";
    brands.set(key, [...(brands.get(key) ?? []), p]);
  }
  let n = 0;
  for (const [brand, projects] of brands) {
    lines.push(`  section ${label(brand)}`);
    for (const p of projects) {
      n++;
      const end = p.finishMs ?? p.pause?.atMs ?? p.startMs;
      const minutes = Math.max(1, Math.ceil((end - p.startMs) / MINUTE));
      const crit = p.pause !== null || p.meetsDeadline === false ? "crit, " : "";
      const note = p.pause === null ? "" : ` (pauses, ${p.pause.recipientsLeft} left)`;
      lines.push(`  ${label(`${p.address}${note}`)} :${crit}p${n}, ${at(p.startMs)}, ${minutes}m`);
    }
  }
  const marks: string[] = [];
  for (const d of f.brandDays)
    if (f.brandDays.some((e) => e.brand === d.brand && e.startMs < d.startMs))
      marks.push(`  ${label(`Pacific midnight ${d.pacificDay}`)} :milestone, ${at(d.startMs)}, 0m`);
  for (const p of f.projects)
    if (p.deadlineMs !== null)
      marks.push(`  ${label(`deadline ${p.address}`)} :milestone, ${at(p.deadlineMs)}, 0m`);
  const unique = [...new Set(marks)];
  if (unique.length > 0) lines.push("  section marks", ...unique);
  return lines.join("\n");
}
