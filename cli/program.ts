/**
 * The command tree. Each command is registered (name, arguments, flags, help) in
 * `register/<name>.ts`, which loads only light modules; its implementation, `commands/<name>.ts`,
 * is imported when the command runs and reports its Outcome. So `--version`, `--help` and each
 * command load only what they use. `help [command]` and the answer to an unknown command (with the
 * nearest command's name) are `register/help.ts`.
 */
import { type Command, CommanderError, Option } from "commander";
import type { Io } from "./io.js";
import type { ReportOutcome } from "./outcome.js";
import { registerApply } from "./register/apply.js";
import { registerCompletion } from "./register/completion.js";
import { registerHelp } from "./register/help.js";
import { registerImport } from "./register/import.js";
import { registerInit } from "./register/init.js";
import { registerLsp } from "./register/lsp.js";
import { registerPlan } from "./register/plan.js";
import { registerPreview } from "./register/preview.js";
import { registerReplies } from "./register/replies.js";
import { registerResults } from "./register/results.js";
import { registerSandbox } from "./register/sandbox.js";
import { registerStatus } from "./register/status.js";
import { registerValidate } from "./register/validate.js";
import { registerVersion } from "./register/version.js";
import { registerWatch } from "./register/watch.js";
import { registerWebhooks } from "./register/webhooks.js";
import { StrictCommand } from "./strict-command.js";
import { VERSION } from "./version.js";

export function buildProgram(io: Io, report: ReportOutcome): Command {
  // Positional options: `-v`/`--version` (and `-V`) are the root's, so they count only before a
  // command; within one they are unknown options (strict-command.ts says what was meant).
  const program = new StrictCommand("campaignctl")
    .enablePositionalOptions()
    .description(
      "Campaign-as-code for political texting: validate, preview, plan and apply YAML campaign files against the messaging API, or run a local sandbox of that API.",
    )
    .version(VERSION, "-v, --version", "print the version number (more: campaignctl version)")
    .helpOption("-h, --help", "display help for command")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError("(run with --help for usage)");
  // `-V`, the flag before `-v`, still prints the version; hidden, so help shows one spelling.
  program.addOption(new Option("-V", "print the version").hideHelp()).on("option:V", () => {
    io.stdout(`${VERSION}\n`);
    throw new CommanderError(0, "commander.version", VERSION);
  });
  for (const register of commands) register(program, io, report);
  registerHelp(program);
  return program;
}

type Register = (program: Command, io: Io, report: ReportOutcome) => void;

/** In the order `campaignctl --help` lists them: the workflow first, then the tools around it. */
const commands: Register[] = [
  registerInit,
  registerValidate,
  registerPreview,
  registerPlan,
  registerApply,
  registerImport,
  registerStatus,
  registerWatch,
  registerResults,
  registerWebhooks,
  registerReplies,
  registerSandbox,
  registerLsp,
  registerCompletion,
  registerVersion,
];
