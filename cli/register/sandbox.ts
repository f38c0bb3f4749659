/**
 * Registers `campaignctl sandbox` (flags, help and their parsers); the command itself
 * (`../commands/sandbox.ts`, which loads `src/sandbox/` when it starts) loads when it runs.
 */
import { type Command, InvalidArgumentError } from "commander";
import type { WebhookClock } from "../../src/sandbox/index.js";
import type { SandboxFlags, StartFlag } from "../commands/sandbox.js";
import { DEFAULT_SANDBOX_PORT } from "../flags/flag-defaults.js";
import { parseInstant } from "../flags/instant.js";
import { integerIn } from "../flags/option-parsers.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";

export function registerSandbox(program: Command, io: Io, report: ReportOutcome): void {
  program
    .command("sandbox")
    .description("Run a stateful local emulator of the messaging API (for tests, demos and integrations)")
    .option("--port <n>", "port to listen on (0: any free port)", integerIn(0, 65535), DEFAULT_SANDBOX_PORT)
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--fixture <file>", "fixture YAML (default: the package's examples/sandbox.yaml)")
    .option("--state <file>", "persist the world here after every change and resume from it on start")
    .option("--time-scale <x>", "virtual seconds per real second (0: frozen clock)", nonNegative, 1)
    .option(
      "--no-rate-limits",
      "do not enforce or count the per-key rate limits (headers say the whole limit remains)",
    )
    .option("--auto-approve-tests", "approve test sends at once (awaiting_test -> ready)")
    .option(
      "--faults <spec>",
      'inject faults, e.g. "POST /projects/{id}/schedule: commit-then-fail(500) p=0.3"',
    )
    .option("--seed <n>", "seed for fault draws and generated ids", integerIn(0, 2 ** 31 - 1), 1)
    .option(
      "--json",
      "print one JSON line on startup (URLs, env names, organizations, keys) instead of the banner",
    )
    .option("--no-color", "no ANSI colour (the sandbox prints none; accepted like every command)")
    .option(
      "--start <when>",
      'virtual start: "now" (default; the fixture\'s dates move with it), "fixture" (its clock.start and dates), or an ISO 8601 time',
      startFlag,
    )
    .option(
      "--webhook-clock <clock>",
      'the clock of webhook deliveries\' X-Timestamp: "virtual" (default; the sandbox\'s clock) or "wall" (this machine\'s, for a listener while the virtual clock runs ahead)',
      webhookClock,
    )
    .addHelpText(
      "after",
      [
        "",
        "Routes outside the contract live under /_sandbox (no key): clock, approve, requests, effects,",
        "test-messages, faults, simulation, webhook-endpoints, reset. Reference: docs/sandbox.md.",
        "",
        "Examples:",
        "  campaignctl sandbox",
        "  campaignctl sandbox --port 0 --state .campaignctl/sandbox.json --auto-approve-tests",
        "  campaignctl sandbox --start fixture",
      ].join("\n"),
    )
    .action(async (flags: SandboxFlags) => {
      const { runSandbox, stopSignal } = await import("../commands/sandbox.js");
      report(await runSandbox(flags, io, stopSignal()));
    });
}

function nonNegative(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError("expected a number >= 0");
  return n;
}

function startFlag(value: string): StartFlag {
  if (value === "now" || value === "fixture") return value;
  const instant = parseInstant(value);
  if (instant === undefined)
    throw new InvalidArgumentError('expected "now", "fixture" or an ISO 8601 date-time with a zone');
  return instant;
}

function webhookClock(value: string): WebhookClock {
  if (value === "virtual" || value === "wall") return value;
  throw new InvalidArgumentError('expected "virtual" or "wall"');
}
