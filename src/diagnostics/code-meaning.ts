/**
 * The one-line meaning of every diagnostic code (the closed union's tables under `codes/`), for
 * reports read by people who do not know the codes: the gallery prints it beside the code.
 */
import { API_CODES } from "./codes/api.js";
import { APPLY_CODES } from "./codes/apply.js";
import { APPROVE_CODES } from "./codes/approve.js";
import { CAMPAIGN_CODES } from "./codes/campaign.js";
import { CLI_CODES } from "./codes/cli.js";
import { EMAIL_CODES } from "./codes/email.js";
import { EXPERIMENT_CODES } from "./codes/experiment.js";
import { FORECAST_CODES } from "./codes/forecast.js";
import { IMPORT_CODES } from "./codes/import.js";
import { LINT_CODES } from "./codes/lint.js";
import { LSP_CODES } from "./codes/lsp.js";
import { MESSAGE_CODES } from "./codes/message.js";
import { PLAN_CODES } from "./codes/plan.js";
import { POLICY_CODES } from "./codes/policy.js";
import { REPLIES_CODES } from "./codes/replies.js";
import { REPORT_CODES } from "./codes/report.js";
import { RESULTS_CODES } from "./codes/results.js";
import { STATUS_CODES } from "./codes/status.js";
import { WATCH_CODES } from "./codes/watch.js";
import { WEBHOOKS_CODES } from "./codes/webhooks.js";

const MEANINGS: Readonly<Record<string, string>> = {
  ...API_CODES,
  ...APPLY_CODES,
  ...APPROVE_CODES,
  ...CAMPAIGN_CODES,
  ...CLI_CODES,
  ...FORECAST_CODES,
  ...IMPORT_CODES,
  ...LINT_CODES,
  ...LSP_CODES,
  ...MESSAGE_CODES,
  ...PLAN_CODES,
  ...POLICY_CODES,
  ...REPORT_CODES,
  ...STATUS_CODES,
  ...WATCH_CODES,
  ...WEBHOOKS_CODES,
  ...REPLIES_CODES,
  ...EMAIL_CODES,
  ...EXPERIMENT_CODES,
  ...RESULTS_CODES,
};

/** What a code means, in words; undefined for a string that is no code of ours. */
export function codeMeaning(code: string): string | undefined {
  return Object.hasOwn(MEANINGS, code) ? MEANINGS[code] : undefined;
}
