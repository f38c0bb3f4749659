/**
 * The views of a status, one per format (after Terraform's internal/command/views, as plan-view.ts):
 * `campaignctl status` chooses a view once, by format, and hands it the status read; the view
 * renders the live figures, the replies answered (when the worker's record was read), the
 * experiments' verdicts and the email campaigns' figures, each in its own section. Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { EmailCampaignFigures } from "../email/figures.js";
import type { StatusReplies } from "../replies/answered-summary.js";
import type { StatusReport } from "../status/report.js";
import { renderEmailStatusText } from "./email-human.js";
import { renderExperimentsMarkdown, renderExperimentsText } from "./experiments-view.js";
import { renderStatusCsv } from "./status-csv.js";
import { renderStatusJson } from "./status-json.js";
import { renderStatusMarkdown } from "./status-markdown.js";
import { renderStatusRepliesMarkdown, renderStatusRepliesText, statusRepliesJson } from "./status-replies.js";
import { renderStatusTable } from "./status-table.js";

/**
 * `text`: the terminal table; `json`: the status document (schemas/status-result.schema.json);
 * `csv`: one row per project, organization and total; `markdown`: the `--markdown FILE` report.
 */
export type StatusFormat = "text" | "json" | "csv" | "markdown";

/**
 * The email campaigns the campaign files describe, as read: their figures and diagnostics (guard
 * alerts). `status` and `watch` read it (cli/email/status-email.ts). Invariant: `campaigns` is empty
 * unless `read` is `"read"`; with `"failed"` (GET /email/campaigns could not be read) it is unknown.
 */
export interface StatusEmail {
  readonly campaigns: readonly EmailCampaignFigures[];
  readonly diagnostics: readonly Diagnostic[];
  readonly read: "read" | "early-access" | "failed";
}

/**
 * What a status view renders. Invariants: `email` is undefined when the files describe no email
 * campaign (or the live figures could not be read), `replies` null when no record of the replies
 * worker was read; the experiments' verdicts are `report.experiments`.
 */
export interface StatusRead {
  readonly report: StatusReport;
  readonly email: StatusEmail | undefined;
  readonly replies: StatusReplies | null;
}

export interface StatusViewOptions {
  /** The width the terminal table must fit in (text only); null: no limit (a pipe, a file). */
  readonly width: number | null;
}

/** Renders a status in one format. The result ends with a newline. */
export type StatusView = (status: StatusRead) => string;

export function statusView(format: StatusFormat, options: StatusViewOptions): StatusView {
  switch (format) {
    case "text":
      return ({ report, email, replies }) =>
        renderStatusTable(report, { width: options.width }) +
        (replies === null ? "" : renderStatusRepliesText(report, replies)) +
        renderExperimentsText(report.experiments ?? []) +
        renderEmailStatusText(email?.campaigns ?? []);
    case "json":
      return ({ report, email, replies }) =>
        renderStatusJson(report, email, replies === null ? undefined : statusRepliesJson(report, replies));
    case "csv":
      return ({ report, email }) => renderStatusCsv(report, email?.campaigns);
    case "markdown":
      return ({ report, email, replies }) =>
        renderStatusMarkdown(report, email) +
        (replies === null ? "" : renderStatusRepliesMarkdown(report, replies)) +
        renderExperimentsMarkdown(report.experiments ?? []);
  }
}
