/**
 * Registers `campaignctl webhooks listen` and `campaignctl webhooks verify` (flags, help and their
 * parsers); the commands themselves (`../commands/webhooks-*.ts`, which load `src/webhooks/`) load
 * when they run.
 */
import type { Command } from "commander";
import type { WebhooksListenFlags } from "../commands/webhooks-listen.js";
import type { WebhooksVerifyFlags } from "../commands/webhooks-verify.js";
import { DEFAULT_SECRET_ENV, DEFAULT_WEBHOOKS_PORT, DEFAULT_WEBHOOKS_STATE } from "../flags/flag-defaults.js";
import { collect, durationIn, instantArgument, integerIn } from "../flags/option-parsers.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";

export function registerWebhooks(program: Command, io: Io, report: ReportOutcome): void {
  const webhooks = program
    .command("webhooks")
    .description("Receive the API's signed webhook deliveries on this machine, or check a stored one");
  registerListen(webhooks, io, report);
  registerVerify(webhooks, io, report);
}

function registerListen(webhooks: Command, io: Io, report: ReportOutcome): void {
  webhooks
    .command("listen")
    .description(
      "Receive signed deliveries: verify, dedupe, write to disk, print, then answer; forward at least once",
    )
    .option("--port <n>", "port to listen on (0: any free port)", integerIn(0, 65535), DEFAULT_WEBHOOKS_PORT)
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option(
      "--secret-env <name>",
      `environment variable holding a signing secret; repeat it to accept old and new secret during a rotation (default: ${DEFAULT_SECRET_ENV})`,
      collect,
    )
    .option(
      "--events <kinds>",
      "handle only these event kinds, comma-separated (others are answered and ignored)",
      collect,
    )
    .option("--json", "print one JSON line per event (schemas/webhook-listen-line.schema.json)")
    .option(
      "--forward-to <url>",
      "hand each verified event on to this URL (https, or http to loopback), at least once: retried with backoff from a durable outbox, across restarts",
    )
    .option(
      "--forward-max-attempts <n>",
      "attempts after which an event the handler keeps refusing goes to <state>/dead-letter.jsonl (default: 50)",
      integerIn(1, 100_000),
    )
    .option(
      "--forward-max-age <duration>",
      "age after which an event the handler keeps refusing goes to <state>/dead-letter.jsonl (default: 24h)",
      durationIn("90s, 30m, 24h"),
    )
    .option(
      "--state <dir>",
      "directory of the record (events, dedupe, outbox) and the dead-letter file, kept across restarts",
      DEFAULT_WEBHOOKS_STATE,
    )
    .option("--no-color", "no ANSI colour (the listener prints none; accepted like every command)")
    .addHelpText(
      "after",
      [
        "",
        "Each delivery is checked: X-Webhook-Signature (HMAC-SHA256 of the raw body, any of the secrets),",
        "X-Timestamp within 5 minutes, not seen before by X-Event-ID nor by its signed body. A delivery is",
        "answered 2xx only once its event is flushed to <state>/dedupe.jsonl. Forwarded events carry",
        "X-Campaignctl-Attempt; your handler must dedupe by X-Event-ID. Reference: docs/webhooks.md.",
        "",
        "Examples:",
        "  CAMPAIGNCTL_WEBHOOK_SECRET=whsec_... campaignctl webhooks listen",
        "  campaignctl webhooks listen --secret-env WH_NEW --secret-env WH_OLD --events message.replied --json",
        "  campaignctl webhooks listen --forward-to http://127.0.0.1:3000/hooks",
      ].join("\n"),
    )
    .action(async (flags: WebhooksListenFlags) => {
      const { runWebhooksListen } = await import("../commands/webhooks-listen.js");
      const { stopSignal } = await import("../commands/sandbox.js");
      report(await runWebhooksListen(flags, io, stopSignal()));
    });
}

function registerVerify(webhooks: Command, io: Io, report: ReportOutcome): void {
  webhooks
    .command("verify")
    .description("Check a stored delivery (headers file and raw body file): exit 0 valid, 1 invalid")
    .requiredOption("--headers <file>", 'the delivery\'s headers: a JSON object, or "Name: value" lines')
    .requiredOption("--body <file>", "the delivery's body, byte for byte as received")
    .option(
      "--secret-env <name>",
      `environment variable holding a signing secret; repeatable (default: ${DEFAULT_SECRET_ENV})`,
      collect,
    )
    .option(
      "--now <time>",
      "judge X-Timestamp against this time (ISO 8601 with a zone) instead of the system clock",
      instantArgument,
    )
    .option("--json", "print the result as JSON (schemas/webhook-verify-result.schema.json)")
    .option("--no-color", "no ANSI colour (also: NO_COLOR)")
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  campaignctl webhooks verify --headers delivery.headers --body delivery.json --secret-env WH_SECRET",
        "  campaignctl webhooks verify --headers h.json --body b.json --now 2026-12-01T15:00:00Z --json",
      ].join("\n"),
    )
    .action(async (flags: WebhooksVerifyFlags) => {
      const { runWebhooksVerify } = await import("../commands/webhooks-verify.js");
      report(await runWebhooksVerify(flags, io));
    });
}

/** A repeatable option's values, in order. */
