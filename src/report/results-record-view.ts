/**
 * What `results record` prints: a few lines of text, or one JSON document
 * (schemas/results-record-result.schema.json). Pure; the summary is the command's
 * (cli/commands/results-record.ts).
 */
import { compareDiagnostics } from "../diagnostics/diagnostic.js";
import { diagnosticJson } from "../diagnostics/json.js";
import type { RecordSummary } from "../results/record-summary.js";

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export function renderRecordText(s: RecordSummary): string {
  const lines: string[] = [];
  const c = s.counts;
  if (c === null) lines.push(`Nothing was recorded into ${s.store} (see the errors below).`);
  else {
    lines.push(
      `Recorded ${plural(c.written, "snapshot")} of ${plural(s.projects, "project")} at ${s.at} (the API's clock; hour ${s.hour}) into ${s.store}${c.places.length === 0 ? "." : ":"}`,
    );
    for (const place of c.places) lines.push(`  ${place}`);
    lines.push(
      `${plural(c.unchanged, "project")} unchanged since ${c.unchanged === 1 ? "its" : "their"} last snapshot; ${plural(c.sameHour, "project")} already recorded in this hour.`,
    );
  }
  if (s.windows.length > 0) {
    const range = s.windows.map((w) => `${w.startDate}..${w.endDate}`).join(", ");
    const keys = s.keys.map(
      (k) => `${k.source}: ${plural(k.pages, "page")} (${plural(k.rows, "row")})${k.ok ? "" : ", failed"}`,
    );
    lines.push(`Read GET /projects/stats over ${range}; ${keys.join("; ")}.`);
  }
  return `${lines.join("\n")}\n`;
}

export function renderRecordJson(s: RecordSummary): string {
  const diagnostics = [...s.diagnostics].sort(compareDiagnostics);
  const document = {
    format_version: 1,
    ok: s.counts !== null && !diagnostics.some((d) => d.severity === "error"),
    at: s.at,
    hour: s.hour,
    store: s.store,
    windows: s.windows.map((w) => ({ start_date: w.startDate, end_date: w.endDate })),
    keys: s.keys.map((k) => ({ source: k.source, stats_pages: k.pages, rows: k.rows, ok: k.ok })),
    projects: s.projects,
    written: s.counts?.written ?? 0,
    same_hour: s.counts?.sameHour ?? 0,
    unchanged: s.counts?.unchanged ?? 0,
    places: s.counts?.places ?? [],
    diagnostics: diagnostics.map(diagnosticJson),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** `text`: the lines above; `json`: the document (schemas/results-record-result.schema.json). */
export type RecordFormat = "text" | "json";

/** Renders a `results record` summary in one format. The result ends with a newline. */
export type RecordView = (summary: RecordSummary) => string;

/** The view of `results record`, chosen once by format. */
export function recordView(format: RecordFormat): RecordView {
  switch (format) {
    case "text":
      return renderRecordText;
    case "json":
      return renderRecordJson;
  }
}
