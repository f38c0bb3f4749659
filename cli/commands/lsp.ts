/**
 * `campaignctl lsp`: the language server over stdio (cli/lsp/server.ts). Publishes validate's
 * diagnostics for each open campaign file as it is edited. Offline: no API key, no network.
 */

import type { PolicyFlags } from "../adapters/policy-file.js";
import { systemSchedule } from "../lsp/debounce.js";
import { runServer } from "../lsp/server.js";
import type { Io } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";

/** The flags of `lsp`, as commander parses them. */
export interface LspOptions extends PolicyFlags {
  /** `--stdio`: accepted because editors pass it; stdio is the only transport. */
  readonly stdio?: boolean;
  /** `--debounce MS`: quiet time after an edit before the document is checked. */
  readonly debounce: number;
  /** `--now`: the instant past schedules are judged against, instead of the system clock. */
  readonly now?: Date;
}

/** Runs the server on this process's stdin and stdout until the editor ends the session. */
export async function lspCommand(options: LspOptions, io: Io): Promise<Outcome> {
  const given = options.now;
  const end = await runServer({
    input: process.stdin,
    output: process.stdout,
    context: () => ({
      flags: options,
      cwd: io.cwd,
      now: given ?? new Date(io.clock()),
      ...(given === undefined ? {} : { clock: "--now" }),
    }),
    debounceMs: options.debounce,
    schedule: systemSchedule,
    log: io.stderr,
  });
  // The session is over: stop reading stdin, so the process can end with its exit code.
  process.stdin.destroy();
  return end === "clean" ? success : failure;
}
