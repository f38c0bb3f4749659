/**
 * Registers `campaignctl apply [paths...|PLANFILE]` (flags, help, `--parallelism` and
 * `--wait-for-approval` parsing); the command itself (`../commands/apply.ts`, with the plan pipeline
 * and the reconciliation loop) loads when it runs.
 */
import type { Command } from "commander";
// The defining module, not the src/apply barrel: that one loads the whole reconciliation loop.
import { DEFAULT_PARALLELISM } from "../../src/apply/port.js";
import type { ApplyFlags } from "../commands/apply.js";
import { addConnectionOptions } from "../flags/connection-flags.js";
import { addKeyScopeOption } from "../flags/key-scope-flag.js";
import { durationIn, integerIn } from "../flags/option-parsers.js";
import { addPolicyOptions } from "../flags/policy-flags.js";
import { addSelectionOptions } from "../flags/selection-flags.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";

export function registerApply(program: Command, io: Io, report: ReportOutcome): void {
  const command = program
    .command("apply")
    .description("Carry out a plan (test sends, schedules, pauses) exactly once, in dependency order")
    .argument("[paths...]", "campaign files or directories, or one saved plan (plan --out FILE.json)", ["."]);
  addConnectionOptions(command, "apply against")
    .option("--auto-approve", "do not ask for confirmation (needed without a terminal, e.g. in CI)")
    .option(
      "--parallelism <n>",
      "independent actions in flight at once, per organization when the plan spans several (1 to 16)",
      integerIn(1, 16),
      DEFAULT_PARALLELISM,
    );
  addPolicyOptions(command);
  addKeyScopeOption(command);
  addSelectionOptions(
    command,
    "apply only this project (or every project of this template or organization) and what it is ordered after, or only this email list (its address under email_lists:)",
  )
    .option("--json", "print the apply result document (JSON) on stdout instead of the report")
    .option("--markdown <file>", "also write the result as Markdown (a pull-request comment)")
    .option("--junit <file>", "also write the result as JUnit XML (one test case per action)")
    .option(
      "--wait-for-approval <duration>",
      "after test sends, wait this long (e.g. 10m, 90s) for approvals and schedule",
      durationIn("90s, 10m or 1h30m"),
    )
    .option(
      "--pull-request <n>",
      "in GitHub Actions, the pull request whose approving reviews approve a saved plan (default: the event's)",
      integerIn(1, Number.MAX_SAFE_INTEGER),
    )
    .option("--refresh", "ignore the cache of live reads when planning (it is still updated)")
    .option(
      "--forecast",
      "also show the forecast (daily caps, throughput, quiet hours, deadlines) with the plan, before the question (with campaign files)",
    )
    .option("--no-color", "no ANSI colour (also: NO_COLOR)")
    .option("--verbose", "also list the API requests by endpoint (the JSON always has them)")
    .addHelpText(
      "after",
      [
        "",
        "apply is a loop: it reads the projects, judges them against the files as plan does, sends what",
        "is runnable (each send rests on a read made in this run), and goes round again until nothing",
        "more can be done now (a test approved at once is scheduled, after: chains go on).",
        "Every request carries its plan's Idempotency-Key; unknown outcomes are settled by re-reading",
        "the project, never by blind resending. Each run writes a journal to .campaignctl/journal/.",
        "Exit codes: 0 every action done or deferred; 1 anything failed, skipped, blocked, unknown or",
        "refused, or a project the files ask something of unreadable;",
        "130 interrupted (Ctrl-C lets requests in flight finish; press it twice to abort at once).",
        "",
        "Examples:",
        "  campaignctl apply --sandbox examples/",
        "  campaignctl plan campaigns/ --out plan.json && campaignctl apply plan.json",
        "  campaignctl apply campaigns/ --auto-approve --wait-for-approval 10m --junit apply.xml",
        "  campaignctl apply campaigns/ --forecast      # the forecast before the question",
        "",
      ].join("\n"),
    )
    .action(async (paths: string[], flags: ApplyFlags) => {
      const { applyCommand } = await import("../commands/apply.js");
      report(await applyCommand(paths, flags, io));
    });
}
