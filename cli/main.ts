#!/usr/bin/env node
/**
 * The one error boundary of campaignctl: builds the command tree, runs one command, turns its
 * Outcome into the exit code, and turns any unexpected exception into a one-line message (the stack
 * only with CAMPAIGNCTL_DEBUG=1). Nothing else in the tree decides exit codes.
 */
import { CommanderError } from "commander";
import { type Io, processIo } from "./io.js";
import { exitCodeOf, type Outcome } from "./outcome.js";
import { buildProgram } from "./program.js";

export async function run(argv: readonly string[], io: Io): Promise<number> {
  let outcome: Outcome | undefined;
  const program = buildProgram(io, (o) => {
    outcome = o;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with exit code 0; everything else is a usage error.
      return error.exitCode === 0 ? 0 : exitCodeOf({ kind: "usage" });
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`campaignctl: internal error: ${message}\nThis is a bug in campaignctl; please report it.\n`);
    if (io.env.CAMPAIGNCTL_DEBUG === "1" && error instanceof Error && error.stack)
      io.stderr(`${error.stack}\n`);
    return 70;
  }
  return exitCodeOf(outcome ?? { kind: "success" });
}

const isEntryPoint = process.argv[1] !== undefined && import.meta.url.endsWith("/cli/main.js");
if (isEntryPoint) {
  const code = await run(process.argv.slice(2), processIo());
  process.exitCode = code;
}
