/**
 * `campaignctl validate [paths...]`: loads campaign files, checks them against the schema and the
 * lint rules, and prints every problem. Offline: no API key, no network.
 */
import { type Command, InvalidArgumentError } from "commander";
import { combineFileChecks, type FileCheckJob } from "../../src/campaign/file-check.js";
import { readCampaignFiles } from "../../src/campaign/read-files.js";
import { summarize, summaryLine, validateJson } from "../../src/campaign/validate-report.js";
import { compareDiagnostics } from "../../src/diagnostics/diagnostic.js";
import { parseInstant } from "../instant.js";
import type { Io } from "../io.js";
import { failure, success } from "../outcome.js";
import { addOutputOptions, type Format, formatGiven, formatOf, type OutputFlags } from "../output-format.js";
import { loadPolicy } from "../policy-file.js";
import { hiddenInfos, hiddenNote, printDiagnostics } from "../print-diagnostics.js";
import type { ReportOutcome } from "../program.js";
import { checkFiles } from "../validate-workers.js";

interface ValidateOptions extends OutputFlags {
  readonly strict?: boolean;
  /** `--policy FILE`; default: `campaignctl.policy.yaml` at the root of a campaign directory given. */
  readonly policy?: string;
  /** `--now`: the time past schedules are judged against, instead of the system clock. */
  readonly now?: Date;
}

export function registerValidate(program: Command, io: Io, report: ReportOutcome): void {
  const command = program
    .command("validate")
    .description("Check campaign files offline: YAML, schema, references between projects, lint rules")
    .argument("[paths...]", "campaign files or directories (read recursively for *.yaml, *.yml)", ["."]);
  addOutputOptions(command)
    .option("--strict", "fail on warnings too")
    .option(
      "--policy <file>",
      "enforce this policy file (default: campaignctl.policy.yaml in a directory given, or beside a file given)",
    )
    .option(
      "--now <time>",
      "judge past schedules against this time (ISO 8601 with a zone) instead of the system clock",
      parseNow,
    )
    .addHelpText(
      "after",
      [
        "",
        "Prints every problem as file:line:col with the source line (warnings first, errors last),",
        "then a summary line. Info notes are shown with --verbose; the JSON document always has them.",
        "Exit codes: 0 no errors (with --strict: no warnings either), 1 otherwise.",
        "",
        "Examples:",
        "  campaignctl validate examples/",
        "  campaignctl validate campaigns/ --strict",
        "  campaignctl validate . --json | jq .summary",
        "",
      ].join("\n"),
    )
    .action(async (paths: string[], options: ValidateOptions, self: Command) => {
      const format = formatOf(options, formatGiven(self));
      if (typeof format !== "string") self.error(`error: ${format.usage}`);
      else report(await validateCommand(paths, format, options, io, options.now));
    });
}

async function validateCommand(
  paths: readonly string[],
  format: Format,
  options: ValidateOptions,
  io: Io,
  givenNow: Date | undefined,
) {
  const read = readCampaignFiles(paths, io.cwd);
  // Offline, the system clock is the only clock there is; a past schedule is a warning naming it.
  const now = givenNow ?? new Date();
  const policy = loadPolicy(options.policy, paths, io.cwd);
  // Each file's own checks (with lint and policy) may run on worker threads; then those across files.
  const job: FileCheckJob = {
    now: now.getTime(),
    ...(givenNow === undefined ? {} : { clock: "--now" }),
    policy: policy.ok ? policy.policy : null,
  };
  const checked = combineFileChecks(await checkFiles(read.files, job, io.env), job);
  const diagnostics = [
    ...read.diagnostics,
    ...checked.diagnostics,
    ...(policy.ok ? [] : policy.diagnostics),
  ].sort(compareDiagnostics);
  const files = read.files;
  const summary = summarize(files, checked.addresses.length, diagnostics);
  switch (format) {
    case "json":
      io.stdout(`${JSON.stringify(validateJson(files, summary, diagnostics), null, 2)}\n`);
      break;
    case "text": {
      const sources = new Map(files.map((f) => [f.path, f.text]));
      if (policy.ok && policy.policy !== null && policy.text !== null)
        sources.set(policy.policy.file, policy.text);
      const show = { verbose: options.verbose === true, color: options.color };
      printDiagnostics(io, "stdout", diagnostics, sources, show);
      io.stdout(`${summaryLine(summary)}${hiddenNote(hiddenInfos(diagnostics, show))}\n`);
      break;
    }
  }
  const failed = summary.errors > 0 || (options.strict === true && summary.warnings > 0);
  return failed ? failure : success;
}

/** `--now`: an ISO 8601 date-time with an explicit zone (`Z` or an offset), so it means one instant. */
function parseNow(value: string): Date {
  const instant = parseInstant(value);
  if (instant === undefined)
    throw new InvalidArgumentError("expected an ISO 8601 date-time with a zone, e.g. 2026-12-01T15:00:00Z");
  return instant;
}
