/**
 * The command tree. Each command is registered (name, arguments, flags, help) in
 * `register/<name>.ts`; its implementation, `commands/<name>.ts`, is imported when the command
 * runs and reports its Outcome. The registrations load lazily too: a run of one command (`validate
 * x.yaml`) loads that command's registration only; the whole tree is built for what lists or
 * completes every command (no command, `--help`, `help [command]`, `completion`, an unknown
 * command). `help [command]` and the answer to an unknown command (with the nearest command's
 * name) are `register/help.ts`.
 */
import { type Command, CommanderError, Option } from "commander";
import { StrictCommand } from "./flags/strict-command.js";
import { commandWord } from "./lifecycle/command-word.js";
import type { Io } from "./output/io.js";
import type { ReportOutcome } from "./output/outcome.js";
import { registerHelp } from "./register/help.js";
import { VERSION } from "./version.js";

/**
 * The command tree of a run of `argv` (the whole tree when `argv` is not given): the command
 * `argv` names, alone, or every command (see the file comment).
 */
export async function buildProgram(
  io: Io,
  report: ReportOutcome,
  argv?: readonly string[],
): Promise<Command> {
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
  const named = argv === undefined ? undefined : COMMANDS.find((c) => c.name === commandWord(argv));
  const registers = await Promise.all(
    (named === undefined || named.needsTree ? COMMANDS : [named]).map((c) => c.load()),
  );
  for (const register of registers) register(program, io, report);
  registerHelp(program);
  return program;
}

/** The command `argv` runs (also read by the bin before it loads this module: cli/main.ts). */
export { commandWord } from "./lifecycle/command-word.js";

type Register = (program: Command, io: Io, report: ReportOutcome) => void;

/**
 * Every command, in the order `campaignctl --help` lists them: the workflow first, then the tools
 * around it. `needsTree`: the command reads the whole tree (completion scripts list every command).
 */
const COMMANDS: readonly { name: string; needsTree?: true; load: () => Promise<Register> }[] = [
  { name: "init", load: () => import("./register/init.js").then((m) => m.registerInit) },
  { name: "validate", load: () => import("./register/validate.js").then((m) => m.registerValidate) },
  { name: "preview", load: () => import("./register/preview.js").then((m) => m.registerPreview) },
  { name: "plan", load: () => import("./register/plan.js").then((m) => m.registerPlan) },
  { name: "apply", load: () => import("./register/apply.js").then((m) => m.registerApply) },
  { name: "approve", load: () => import("./register/approve.js").then((m) => m.registerApprove) },
  { name: "import", load: () => import("./register/import.js").then((m) => m.registerImport) },
  { name: "status", load: () => import("./register/status.js").then((m) => m.registerStatus) },
  { name: "watch", load: () => import("./register/watch.js").then((m) => m.registerWatch) },
  { name: "results", load: () => import("./register/results.js").then((m) => m.registerResults) },
  { name: "webhooks", load: () => import("./register/webhooks.js").then((m) => m.registerWebhooks) },
  { name: "replies", load: () => import("./register/replies.js").then((m) => m.registerReplies) },
  { name: "sandbox", load: () => import("./register/sandbox.js").then((m) => m.registerSandbox) },
  { name: "lsp", load: () => import("./register/lsp.js").then((m) => m.registerLsp) },
  {
    name: "completion",
    needsTree: true,
    load: () => import("./register/completion.js").then((m) => m.registerCompletion),
  },
  { name: "version", load: () => import("./register/version.js").then((m) => m.registerVersion) },
];
