/**
 * Registers `campaignctl watch [paths...]` (flags and help); the command itself
 * (`../commands/watch.ts`, with `src/status/`) loads when it runs.
 */
import type { Command } from "commander";
import type { WatchFlags } from "../commands/watch.js";
import { addConnectionOptions } from "../flags/connection-flags.js";
import { durationIn } from "../flags/option-parsers.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";
import { addRecordOptions } from "./results.js";

export function registerWatch(program: Command, io: Io, report: ReportOutcome): void {
  const command = program
    .command("watch")
    .description(
      "Follow the campaign's projects while they send: progress and rates, and pause a project whose guard trips",
    )
    .argument("[paths...]", "campaign files or directories (default: .)")
    .option("--once", "poll once and exit: 0 nothing tripped, 2 a guard tripped and its project was paused")
    .option("--until-done", "stop when no watched project or email campaign is still sending")
    .option(
      "--interval <duration>",
      "time between polls, at least 5s (longer when a poll needs many pages)",
      durationIn("15s, 1m or 1m30s"),
    )
    .option("--json", "print one JSON line per event (schemas/watch-event.schema.json)");
  addRecordOptions(command);
  addConnectionOptions(command, "watch")
    .option("--no-color", "no ANSI colour (also: NO_COLOR)")
    .addHelpText(
      "after",
      [
        "",
        "Each poll reads GET /projects/stats in bulk (one request per 1,000 rows, never one per project)",
        "and judges each sending project's guard (failure = failed / sent, opt-out = opt-outs / delivered,",
        "after min_sample sent). A tripped guard pauses its project (reason `guard: ...`); the pause stays",
        "pending, retried every poll with one key, until the project reads paused or stops sending.",
        "Default interval 15s. Exit codes: 0 no guard tripped; 2 a guard tripped and its project was",
        "paused; 1 an error, a pause still pending at the end, or a tripped project that completed before",
        "its pause landed. Reference: docs/watch.md.",
        "",
        "Examples:",
        "  campaignctl watch --sandbox examples/",
        "  campaignctl watch campaigns/ --until-done",
        "  campaignctl watch campaigns/ --once --json    # a cron job or CI step",
        "",
      ].join("\n"),
    )
    .action(async (paths: string[], flags: WatchFlags) => {
      const { watchCommand } = await import("../commands/watch.js");
      report(await watchCommand(paths, flags, io));
    });
}
