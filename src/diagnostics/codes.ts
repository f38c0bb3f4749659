import type { ApiCode } from "./codes/api.js";
import type { ApplyCode } from "./codes/apply.js";
import type { ApproveCode } from "./codes/approve.js";
import type { CampaignCode } from "./codes/campaign.js";
import type { CliCode } from "./codes/cli.js";
import type { EmailCode } from "./codes/email.js";
import type { ExperimentCode } from "./codes/experiment.js";
import type { ForecastCode } from "./codes/forecast.js";
import type { ImportCode } from "./codes/import.js";
import type { LintCode } from "./codes/lint.js";
import type { LspCode } from "./codes/lsp.js";
import type { MessageCode } from "./codes/message.js";
import type { PlanCode } from "./codes/plan.js";
import type { PolicyCode } from "./codes/policy.js";
import type { RepliesCode } from "./codes/replies.js";
import type { ReportCode } from "./codes/report.js";
import type { ResultsCode } from "./codes/results.js";
import type { StatusCode } from "./codes/status.js";
import type { WatchCode } from "./codes/watch.js";
import type { WebhooksCode } from "./codes/webhooks.js";

/**
 * Every diagnostic code, a closed union. Each area owns one file under `codes/` listing its codes
 * with a one-line meaning; codes are stable: rename one only with a changelog entry.
 */
export type DiagnosticCode =
  | CampaignCode
  | MessageCode
  | LintCode
  | ApiCode
  | PlanCode
  | ForecastCode
  | PolicyCode
  | ApplyCode
  | ApproveCode
  | CliCode
  | LspCode
  | ImportCode
  | ReportCode
  | StatusCode
  | WatchCode
  | WebhooksCode
  | RepliesCode
  | EmailCode
  | ResultsCode
  | ExperimentCode;
