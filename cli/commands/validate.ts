/**
 * `campaignctl validate [paths...]`: loads campaign files, checks them against the schema and the
 * lint rules, and prints every problem. Offline: no API key, no network.
 */
import { combineFileChecks } from "../../src/campaign/file-check.js";
import { groupInstanceFindings } from "../../src/campaign/template-findings.js";
import { summarize } from "../../src/campaign/validate-report.js";
import { compareDiagnostics } from "../../src/diagnostics/diagnostic.js";
import { validateView } from "../../src/report/validate-view.js";
import { readCampaignFiles } from "../adapters/campaign-files.js";
import { loadPolicy, type PolicyFlags } from "../adapters/policy-file.js";
import { validateEmail } from "../email/validate-email.js";
import type { Format, OutputFlags } from "../flags/output-format.js";
import { type Io, useColor } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";
import { collectorForFiles } from "../validate/collector-flags.js";
import type { ValidateJob } from "../validate/validate-check.js";
import { checkFiles } from "../validate/validate-workers.js";

/** The flags of `validate`, as commander parses them. */
export interface ValidateOptions extends OutputFlags, PolicyFlags {
  readonly strict?: boolean;
  /** `--now`: the time past schedules are judged against, instead of the system clock. */
  readonly now?: Date;
}

/** Runs `validate`: reads, checks (on worker threads when it pays) and reports the files. */
export async function validateCommand(
  paths: readonly string[],
  format: Format,
  options: ValidateOptions,
  io: Io,
  givenNow: Date | undefined,
): Promise<Outcome> {
  const read = readCampaignFiles(paths, io.cwd);
  // Before any YAML is parsed: V8's collector settings for as many files (collector-flags.ts).
  collectorForFiles(read.files.length);
  // Offline, the system clock is the only clock there is; a past schedule is a warning naming it.
  const now = givenNow ?? new Date(io.clock());
  // The policy is found from the files read (see policy-file.ts), so only once they are read.
  const policy = loadPolicy(
    options,
    read.files.map((f) => f.path),
    io.cwd,
  );
  // Each file's own checks (with lint and policy) may run on worker threads; then those across files.
  const job: ValidateJob = {
    now: now.getTime(),
    ...(givenNow === undefined ? {} : { clock: "--now" }),
    policy: policy.ok ? policy.policy : null,
  };
  const checked = combineFileChecks(await checkFiles(read.files, job, io.env), job);
  // Email lists' CSV files (docs/email.md), streamed to their end.
  const email = await validateEmail(
    checked.email.lists,
    policy.ok && policy.policy?.rules.require_email_consent === true,
    io.cwd,
  );
  // Gathered from every thread: a finding at a template's value for several instances is one.
  const diagnostics = groupInstanceFindings([
    ...read.diagnostics,
    ...checked.diagnostics,
    ...policy.diagnostics,
    ...email,
  ]).sort(compareDiagnostics);
  const files = read.files;
  const summary = summarize(files, checked.addresses.length, diagnostics);
  // The policy files in force are named in every output (`policy: none` when none applies).
  const view = validateView(format, {
    color: options.color && useColor(io, "stdout"),
    verbose: options.verbose === true,
  });
  io.stdout(
    view({
      files,
      summary,
      diagnostics,
      policy: policy.ok ? { files: policy.policy?.files ?? [], texts: policy.texts } : null,
    }),
  );
  const failed = summary.errors > 0 || (options.strict === true && summary.warnings > 0);
  return failed ? failure : success;
}
