/**
 * Registers `campaignctl validate [paths...]` (flags and help; `--now` comes from `../now-option.ts`);
 * the command itself (`../commands/validate.ts`) loads when it runs.
 */
import type { Command } from "commander";
import type { ValidateOptions } from "../commands/validate.js";
import { addNowOption } from "../flags/now-option.js";
import { addOutputOptions, formatGiven, formatOf } from "../flags/output-format.js";
import { addPolicyOptions } from "../flags/policy-flags.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";

export function registerValidate(program: Command, io: Io, report: ReportOutcome): void {
  const command = program
    .command("validate")
    .description("Check campaign files offline: YAML, schema, references between projects, lint rules")
    .argument("[paths...]", "campaign files or directories (read recursively for *.yaml, *.yml)", ["."]);
  addOutputOptions(command).option("--strict", "fail on warnings too");
  addPolicyOptions(command);
  addNowOption(command)
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
