/**
 * Registers `campaignctl replies plan` and `campaignctl replies run` (flags and help); the commands
 * (`../commands/replies-*.ts`, with `src/replies/`) load when they run.
 */
import { type Command, InvalidArgumentError } from "commander";
import type { RepliesPlanFlags } from "../commands/replies-plan.js";
import type { RepliesRunFlags } from "../commands/replies-run.js";
import { addConnectionOptions } from "../flags/connection-flags.js";
import { DEFAULT_REPLIES_HOST, DEFAULT_REPLIES_PORT, DEFAULT_REPLIES_STATE } from "../flags/flag-defaults.js";
import { addKeyScopeOption } from "../flags/key-scope-flag.js";
import { collect, durationIn, integerIn } from "../flags/option-parsers.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";

/** A price in US dollars: a positive decimal number. */
function price(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0))
    throw new InvalidArgumentError("expected a price in US dollars, such as 0.0079");
  return n;
}

export function registerReplies(program: Command, io: Io, report: ReportOutcome): void {
  const replies = program
    .command("replies")
    .description("Answer inbound texts with the reply rules of the campaign files, exactly once");
  registerRepliesPlan(replies, io, report);
  registerRepliesRun(replies, io, report);
}

function registerRepliesPlan(replies: Command, io: Io, report: ReportOutcome): void {
  const plan = replies
    .command("plan")
    .description("Show what `replies run` would do with the inbounds of a window (sends nothing)")
    .argument("[paths...]", "campaign files or directories (default: .)")
    .option(
      "--since <duration>",
      "how far back to read, by the API's clock (default: 24h)",
      durationIn("24h, 90m or 2h"),
    )
    .option("--segment-price <usd>", "the price of one SMS segment, to show the cost in dollars", price)
    .option(
      "--state <dir>",
      "a worker's state directory (replies run --state): the inbounds it records as settled count as settled",
    )
    .option("--json", "print the plan as JSON (schemas/replies-plan.schema.json)");
  addKeyScopeOption(addConnectionOptions(plan, "plan replies against"))
    .option("--no-color", "no ANSI colour (also: NO_COLOR)")
    .addHelpText(
      "after",
      [
        "",
        "One GET /conversations pass over the window and one thread read per conversation; every inbound",
        "is judged oldest first as `replies run` judges it. Reference: docs/replies.md.",
        "",
        "Examples:",
        "  campaignctl replies plan --sandbox examples/",
        "  campaignctl replies plan campaigns/ --since 2h --segment-price 0.0079 --json",
        "",
      ].join("\n"),
    )
    .action(async (paths: string[], flags: RepliesPlanFlags) => {
      const { repliesPlanCommand } = await import("../commands/replies-plan.js");
      report(await repliesPlanCommand(paths, flags, io));
    });
}

function registerRepliesRun(replies: Command, io: Io, report: ReportOutcome): void {
  const run = replies
    .command("run")
    .description("Answer inbounds as they come (events and polling), each at most once, until Ctrl-C")
    .argument("[paths...]", "campaign files or directories (default: .)")
    .option("--once", "settle the recorded events, make one poll pass if one is due, and exit (for cron)")
    .option("--no-webhooks", "poll only: no listener for message.replied events")
    .option(
      "--port <n>",
      "port the event listener listens on (0: any free port)",
      integerIn(0, 65535),
      DEFAULT_REPLIES_PORT,
    )
    .option("--host <host>", "address the event listener listens on", DEFAULT_REPLIES_HOST)
    .option(
      "--secret-env <name>",
      "environment variable holding the webhook signing secret; repeatable (default: CAMPAIGNCTL_WEBHOOK_SECRET)",
      collect,
    )
    .option(
      "--state <dir>",
      "directory of the answered record, the poll cursor and the event record",
      DEFAULT_REPLIES_STATE,
    )
    .option(
      "--since <duration>",
      "how far back the first poll pass reads when there is no cursor (default: 24h)",
      durationIn("24h, 90m or 2h"),
    )
    .option(
      "--segment-price <usd>",
      "the price of one SMS segment: each answer's cost is written to the record (status shows it)",
      price,
    )
    .option("--json", "print one JSON line per event (schemas/replies-run-line.schema.json)");
  addKeyScopeOption(addConnectionOptions(run, "answer inbounds on"))
    .option("--no-color", "no ANSI colour (also: NO_COLOR)")
    .addHelpText(
      "after",
      [
        "",
        "Each answer carries the Idempotency-Key of (inbound message, rule) and is written to",
        "<state>/answered.jsonl before the next inbound. 503 SEND_ENQUEUE_FAILED is retried as is; other",
        "5xx and dropped connections re-read the thread and send again only if no answer of ours follows",
        "the inbound; a 4xx is recorded and never retried; 402 stops the worker. GET /conversations at",
        "most once a minute (across restarts). Exit codes: 0 stopped cleanly; 1 unusable files, flags,",
        "state or connection, 402, or with --once an outcome still unknown. Reference: docs/replies.md.",
        "",
        "Examples:",
        "  CAMPAIGNCTL_WEBHOOK_SECRET=whsec_... campaignctl replies run campaigns/",
        "  campaignctl replies run campaigns/ --once --no-webhooks --json   # a cron job, every minute",
        "",
      ].join("\n"),
    )
    .action(async (paths: string[], flags: RepliesRunFlags, command: Command) => {
      const { repliesRunCommand } = await import("../commands/replies-run.js");
      // The listener's flags as typed (their defaults are the command's), so that a flag that cannot
      // take effect (--once, --no-webhooks) is a usage error rather than silently ignored.
      const typed = (name: string) => command.getOptionValueSource(name) === "cli";
      report(
        await repliesRunCommand(
          paths,
          {
            ...flags,
            port: typed("port") ? flags.port : undefined,
            host: typed("host") ? flags.host : undefined,
          },
          io,
        ),
      );
    });
}
