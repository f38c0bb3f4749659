/**
 * The one error boundary of campaignctl: builds the command tree, runs one command, turns its
 * Outcome into the exit code, and turns any unexpected exception into a one-line message (the stack
 * only with CAMPAIGNCTL_DEBUG=1). Nothing else in the tree decides exit codes. A closed stdout
 * (`| head -1`) is not an error: `processIo` drops the output nobody reads, and the run keeps its
 * outcome and exit code. The bin (cli/main.ts) imports this module, or, on Node 20 for a command
 * with a code-cached bundle, runs the same code from that bundle (cli/lifecycle/code-cache.ts).
 */

import { CommanderError } from "commander";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { PLAN_FORMAT_VERSION } from "../../src/plan/types.js";
import { UsageError } from "../flags/strict-command.js";
import { type Io, processIo } from "../output/io.js";
import { exitCodeOf, type Outcome } from "../output/outcome.js";
import { redactingIo, redactorFor } from "../output/output-redaction.js";
import { buildProgram } from "../program.js";
import { ioFailure } from "./io-failure.js";
import { enterOwnProcess } from "./own-process.js";

/** The exit code of a run of `argv` in this process (its terminal, environment and clock). */
export function runProcess(argv: readonly string[]): Promise<number> {
  // A process of its own: what is process-wide may change (own-process.ts), in-process runs never.
  enterOwnProcess();
  return run(argv, processIo());
}

export async function run(argv: readonly string[], given: Io): Promise<number> {
  const io = redactingIo(given, redactorFor(argv, given.env));
  let outcome: Outcome | undefined;
  const program = await buildProgram(
    io,
    (o) => {
      outcome = o;
    },
    argv,
  );
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with exit code 0; everything else is a usage error, shown
      // here, once, as every other error is (strict-command.ts keeps commander from writing it).
      if (error.exitCode === 0) return 0;
      // Loaded only here: `--version` and `--help` do not load the diagnostics renderers.
      const { failWith } = await import("../output/fail.js");
      failWith([usageDiagnostic(error)], new Map(), io, {
        json: asksForJson(argv),
        formatVersion: usageFormatVersion(argv),
      });
      return exitCodeOf({ kind: "usage" });
    }
    const refused = ioFailure(error);
    if (refused !== null) {
      // On stderr only: a streaming command's stdout (its JSON lines) is left as it was.
      const { failWith } = await import("../output/fail.js");
      return exitCodeOf(failWith([refused], new Map(), io));
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`campaignctl: internal error: ${message}\nThis is a bug in campaignctl; please report it.\n`);
    if (io.env.CAMPAIGNCTL_DEBUG === "1" && error instanceof Error && error.stack)
      io.stderr(`${error.stack}\n`);
    return 70;
  }
  return exitCodeOf(outcome ?? { kind: "success" });
}

/**
 * The format_version of a usage error's document: that of the command's own documents (3 for
 * `plan`, 1 for the others; error-result.schema.json). The command is the first word that is not a
 * flag: the root has no flag that takes a value.
 */
function usageFormatVersion(argv: readonly string[]): 1 | 3 {
  return argv.find((w) => !w.startsWith("-")) === "plan" ? PLAN_FORMAT_VERSION : 1;
}

/** `--json` or `--format json` anywhere before a `--` (commander has not said which command it is). */
export function asksForJson(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  const words = end < 0 ? argv : argv.slice(0, end);
  return words.some(
    (w, i) => w === "--json" || w === "--format=json" || (w === "--format" && words[i + 1] === "json"),
  );
}

/**
 * The usage error as a diagnostic (`cli.usage`). Commander's suggestion (`\n(Did you mean plan?)`,
 * also given for an unknown command by register/help.ts) or our hint for an unknown flag
 * (strict-command.ts), the parenthesised line after the message, becomes the hint; without one,
 * the hint says where the command's usage is.
 */
export function usageDiagnostic(error: CommanderError): Diagnostic {
  const message = error.message.replace(/^error: /, "");
  const command = error instanceof UsageError ? error.command : "campaignctl";
  const hinted = /\n\((.+)\)$/s.exec(message);
  if (hinted === null || hinted[1] === undefined)
    return { severity: "error", code: "cli.usage", message, hint: `${command} --help shows the usage` };
  const hint = hinted[1].replace(/^Did you mean /, "did you mean ");
  return { severity: "error", code: "cli.usage", message: message.slice(0, hinted.index), hint };
}
