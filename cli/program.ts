/** The command tree. Each command lives in `commands/<name>.ts` and reports its Outcome. */
import { Command } from "commander";
import { registerApply } from "./commands/apply.js";
import { registerImport } from "./commands/import.js";
import { registerPlan } from "./commands/plan.js";
import { registerPreview } from "./commands/preview.js";
import { registerSandbox } from "./commands/sandbox.js";
import { registerValidate } from "./commands/validate.js";
import type { Io } from "./io.js";
import type { Outcome } from "./outcome.js";
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
