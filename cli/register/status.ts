/**
 * Registers `campaignctl status [paths...]` (flags and help); the command itself
 * (`../commands/status.ts`, with `src/status/` and the status views) loads when it runs.
 */
import { type Command, Option } from "commander";
import type { StatusFlags } from "../commands/status.js";
import { addConnectionOptions } from "../flags/connection-flags.js";
import { DEFAULT_REPLIES_STATE } from "../flags/flag-defaults.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";
import { addRecordOptions } from "./results.js";

export function registerStatus(program: Command, io: Io, report: ReportOutcome): void {
  const command = program
    .command("status")
    .description(
      "Show the live figures of the campaign's projects: status, sent, delivered, failed, opt-outs, replies, clicks, cost, and their rates, with totals per organization",
    )
    .argument("[paths...]", "campaign files or directories (default: . unless --all or --organization)")
    .option("--all", "every project the statistics list (updated in the range)")
    .option("--organization <org>", "the projects of this organization (name or id)")
    .option("--since <day>", "first UTC day of the range, YYYY-MM-DD (default and oldest: 89 days ago)")
    .addOption(new Option("--format <format>", "output on stdout").choices(["text", "json", "csv"]))
    .option("--json", "same as --format json (schemas/status-result.schema.json)")
    .option("--markdown <file>", "also write the status as Markdown (a pull-request comment or chat post)")
    .option("--width <columns>", "fit the table in this many columns (default: $COLUMNS, else the terminal)")
    .option("--no-estimate", "do not read project details for the estimate (fewer requests)")
    .option("--refresh", "ignore the cache of project details (it is still updated)")
    .option(
      "--replies-state <dir>",
      `the state directory of \`replies run\`: show the answers it recorded per rule (default: ${DEFAULT_REPLIES_STATE}, when it has a record)`,
    );
  addRecordOptions(command);
  addConnectionOptions(command, "read from")
    .option("--no-color", "no ANSI colour (also: NO_COLOR)")
    .addHelpText(
      "after",
      [
        "",
        "Rates: delivery = delivered / sent, failure = failed / sent, opt-out = opt-outs / delivered,",
        "cost per delivered message = actual cost / delivered; totals recompute them from their sums.",
        "Reads GET /projects/stats in bulk (1,000 rows a page, 31-day windows, 90 days back); a project",
        "no row lists is read by id and its counters are unknown. Exit codes: 0 shown; 1 an error",
        "(a project of the files could not be read, an API failure, a refused range).",
        "",
        "Examples:",
        "  campaignctl status --sandbox examples/",
        "  campaignctl status --all --format csv > status.csv",
        "  campaignctl status campaigns/ --since 2026-11-01 --markdown status.md",
        "",
      ].join("\n"),
    )
    .action(async (paths: string[], flags: StatusFlags) => {
      const { statusCommand } = await import("../commands/status.js");
      report(await statusCommand(paths, flags, io));
    });
}
