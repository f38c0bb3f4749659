/**
 * Registers `campaignctl plan [paths...]` (flags and help); the command itself
 * (`../commands/plan.ts`, with the plan pipeline and the reports) loads when it runs.
 */
import type { Command } from "commander";
import type { PlanFlags } from "../commands/plan.js";
import { addConnectionOptions } from "../flags/connection-flags.js";
import { addKeyScopeOption } from "../flags/key-scope-flag.js";
import { addPolicyOptions } from "../flags/policy-flags.js";
import { addSelectionOptions } from "../flags/selection-flags.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";

export function registerPlan(program: Command, io: Io, report: ReportOutcome): void {
  const command = program
    .command("plan")
    .description("Read the live API and show what differs from the campaign files and what apply would do")
    .argument("[paths...]", "campaign files or directories (read recursively for *.yaml, *.yml)", ["."]);
  addConnectionOptions(command, "plan against").option(
    "--refresh",
    "ignore the cache of live reads (it is still updated)",
  );
  addPolicyOptions(command);
  addKeyScopeOption(command);
  addSelectionOptions(
    command,
    "plan only this project (or every project of this template or organization) and what it is ordered after, or only this email list (its address under email_lists:)",
  )
    .option("--json", "print the plan document (JSON) on stdout instead of the report")
    .option("--markdown <file>", "also write the plan as Markdown (a pull-request comment)")
    .option("--gallery-url <url>", "link the Markdown report to the `preview --html` gallery at URL")
    .option("--out <file>", "also save the plan document for `campaignctl apply FILE`")
    .option(
      "--forecast",
      "also forecast when each scheduled project sends under the declared capacity (daily caps, throughput, quiet hours, deadlines)",
    )
    .option("--detailed-exitcode", "exit 0 nothing to do, 1 error, 2 actions pending, 3 blocked or drifted")
    .option("--no-color", "no ANSI colour (also: NO_COLOR)")
    .option("--verbose", "also list the API requests by endpoint (the JSON always has them)")
    .addHelpText(
      "after",
      [
        "",
        "The key is read from $CAMPAIGNCTL_API_KEY (or the variable --api-key-env names), never from",
        "a flag or a file. Live reads are cached in .campaignctl/cache/ by updated_at.",
        "Exit codes: 0 nothing blocked; 1 error, or anything blocked or drifted.",
        "With --detailed-exitcode: 0 nothing to do, 1 error, 2 actions pending, 3 blocked or drifted.",
        "",
        "Examples:",
        "  campaignctl plan --sandbox examples/",
        "  campaignctl plan campaigns/ --out plan.json --markdown plan.md",
        "  campaignctl plan . --target gotv-reminder --detailed-exitcode",
        "",
      ].join("\n"),
    )
    .action(async (paths: string[], flags: PlanFlags) => {
      const { planCommand } = await import("../commands/plan.js");
      report(await planCommand(paths, flags, io));
    });
}
