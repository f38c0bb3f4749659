/**
 * The command tree. Each command is registered (name, arguments, flags, help) in
 * `register/<name>.ts`, which loads only light modules; its implementation, `commands/<name>.ts`,
 * is imported when the command runs and reports its Outcome. So `--version`, `--help` and each
 * command load only what they use.
 */
import { Command } from "commander";
import type { Io } from "./io.js";
import type { Outcome } from "./outcome.js";
import { registerApply } from "./register/apply.js";
import { registerImport } from "./register/import.js";
import { registerPlan } from "./register/plan.js";
import { registerPreview } from "./register/preview.js";
import { registerSandbox } from "./register/sandbox.js";
import { registerValidate } from "./register/validate.js";
import { VERSION } from "./version.js";

export type ReportOutcome = (outcome: Outcome) => void;

export function buildProgram(io: Io, report: ReportOutcome): Command {
  const program = new Command("campaignctl")
    .description(
      "Campaign-as-code for political texting: validate, preview, plan and apply YAML campaign files against the messaging API, or run a local sandbox of that API.",
    )
    .version(VERSION, "-V, --version")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError("(run with --help for usage)");
  for (const register of commands) register(program, io, report);
  return program;
}

type Register = (program: Command, io: Io, report: ReportOutcome) => void;
const commands: Register[] = [
  registerValidate,
  registerPreview,
  registerPlan,
  registerApply,
  registerImport,
  registerSandbox,
];
