/**
 * The views of a results report, one per format (after Terraform's internal/command/views, as
 * plan-view.ts): `campaignctl results` chooses a view once, by format, and hands it the report read
 * from the store; the view renders the groups' figures and the experiments' verdicts over the period
 * (the formats that show them). Pure.
 */
import type { ResultsReport } from "../results/report.js";
import { renderExperimentsMarkdown, renderExperimentsText } from "./experiments-view.js";
import { renderResultsCsv } from "./results-csv.js";
import { renderResultsHtml } from "./results-html.js";
import { renderResultsJson } from "./results-json.js";
import { renderResultsMarkdown } from "./results-markdown.js";
import { renderResultsTable } from "./results-table.js";

/**
 * `text`: the terminal table; `json`: the results document (schemas/results-result.schema.json);
 * `csv`: one row per group; `markdown`: the `--markdown FILE` report; `html`: the charts page
 * (`--html DIR`).
 */
export type ResultsFormat = "text" | "json" | "csv" | "markdown" | "html";

/** Renders a results report in one format. The result ends with a newline. */
export type ResultsView = (report: ResultsReport) => string;

export function resultsView(format: ResultsFormat): ResultsView {
  switch (format) {
    case "text":
      return (r) => renderResultsTable(r) + renderExperimentsText(r.experiments ?? []);
    case "json":
      return renderResultsJson;
    case "csv":
      return renderResultsCsv;
    case "markdown":
      return (r) => renderResultsMarkdown(r) + renderExperimentsMarkdown(r.experiments ?? []);
    case "html":
      return renderResultsHtml;
  }
}
