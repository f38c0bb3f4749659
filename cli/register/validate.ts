/**
 * Registers `campaignctl validate [paths...]` (flags, help, `--now` parsing); the command itself
 * (`../commands/validate.ts`) loads when it runs.
 */
import { type Command, InvalidArgumentError } from "commander";
import type { ValidateOptions } from "../commands/validate.js";
import { parseInstant } from "../instant.js";
import type { Io } from "../io.js";
import { addOutputOptions, formatGiven, formatOf } from "../output-format.js";
import type { ReportOutcome } from "../program.js";

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
      else {
        const { validateCommand } = await import("../commands/validate.js");
        report(await validateCommand(paths, format, options, io, options.now));
      }
    });
}

/** `--now`: an ISO 8601 date-time with an explicit zone (`Z` or an offset), so it means one instant. */
function parseNow(value: string): Date {
  const instant = parseInstant(value);
  if (instant === undefined)
    throw new InvalidArgumentError("expected an ISO 8601 date-time with a zone, e.g. 2026-12-01T15:00:00Z");
  return instant;
}
