/**
 * Registers `campaignctl results [paths...]` and `campaignctl results record` (flags and help); the
 * commands (`../commands/results*.ts`, with `src/results/` and the results views) load when they run.
 */
import type { Command } from "commander";
import type { ResultsFlags } from "../commands/results.js";
import type { RecordFlags } from "../commands/results-record.js";
import { addConnectionOptions } from "../flags/connection-flags.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";

/** The store flags of both commands. */
function addStoreOptions(command: Command): Command {
  return command
    .option(
      "--store <store>",
      "files (default: the results/ directory) or postgres ($CAMPAIGNCTL_RESULTS_DATABASE_URL)",
    )
    .option("--dir <dir>", "the file store's directory (default: results)");
}

/** `--record` and its store, for `status` and `watch` (docs/results.md "Recording from status and watch"). */
export function addRecordOptions(command: Command): Command {
  return command
    .option("--record", "also record every project the keys see into the results store (docs/results.md)")
    .option(
      "--store <store>",
      "with --record: files (default) or postgres ($CAMPAIGNCTL_RESULTS_DATABASE_URL)",
    )
    .option("--results-dir <dir>", "with --record: the file store's directory (default: results)");
}

export function registerResults(program: Command, io: Io, report: ReportOutcome): void {
  const results = program
    .command("results")
    .description(
      "Show what the campaigns did over a period (sends, delivery, replies, opt-outs, clicks, cost, cost per reply, trend), from the results store",
    )
    .argument(
      "[paths...]",
      "campaign files or directories: their projects only (with --all, every project), by address",
    )
    .option("--by <grouping>", "organization (default), project, template, language, or label:KEY")
    .option("--since <day>", "first UTC day of the period, YYYY-MM-DD (default: the first recorded)")
    .option("--until <day>", "last UTC day of the period, YYYY-MM-DD (default: the last recorded)")
    .option("--month <month>", "the period is this month, YYYY-MM")
    .option("--year <year>", "the period is this year, YYYY")
    .option("--cycle <year>", "the period is the two-year election cycle ending with this even year")
    .option("--every <size>", "the trend's buckets: day, week or month (default: by the period's length)")
    .option("--all", "with paths: every project of the store, not only the files'")
    .option("--organization <org>", "only this organization's projects (name or id)")
    .option("--format <format>", "output on stdout: text, json or csv")
    .option("--json", "same as --format json (schemas/results-result.schema.json)")
    .option("--markdown <file>", "also write the results as Markdown (a pull request or a report)")
    .option("--html <dir>", "also write the results as charts, DIR/index.html (a static page)");
  addStoreOptions(results)
    .option("--no-color", "no ANSI colour (also: NO_COLOR)")
    .addHelpText(
      "after",
      [
        "",
        "Reads only the results store (never the API): `results record` fills it. A period's figures are",
        "what happened in it: each project's counters at its last snapshot before the period's end, less",
        "those before its start. Reference: docs/results.md.",
        "",
        "Examples:",
        "  campaignctl results --month 2026-10",
        "  campaignctl results campaigns/ --by template --cycle 2026 --markdown results.md",
        "  campaignctl results --by project --since 2026-10-01 --until 2026-11-03 --format csv > results.csv",
        "",
      ].join("\n"),
    )
    .action(async (paths: string[], flags: ResultsFlags) => {
      const { resultsCommand } = await import("../commands/results.js");
      report(await resultsCommand(paths, flags, io));
    });
  const record = results
    .command("record")
    .description("Append a snapshot of every project the keys see to the results store (run it every hour)")
    .option("--days <n>", "read the last N days on the API's clock, today included: 1 to 90 (default 31)")
    .option("--since <day>", "or: the first UTC day of the statistics read, YYYY-MM-DD (oldest: 89 days ago)")
    .option("--json", "print what was recorded as JSON (schemas/results-record-result.schema.json)");
  addConnectionOptions(addStoreOptions(record), "record from")
    .option("--no-color", "no ANSI colour (also: NO_COLOR)")
    .addHelpText(
      "after",
      [
        "",
        "Each key lists GET /projects/stats on its own (1,000 rows a page). A snapshot is written when its",
        "project has none of this hour yet and its figures changed since its last one. Exit codes: 0",
        "recorded; 1 an error (no key could be read, the store could not be written). docs/results.md.",
        "",
        "Examples:",
        "  campaignctl results record",
        "  campaignctl results record --store postgres",
        "",
      ].join("\n"),
    )
    .action(async (flags: RecordFlags) => {
      const { resultsRecordCommand } = await import("../commands/results-record.js");
      report(await resultsRecordCommand(flags, io));
    });
}
