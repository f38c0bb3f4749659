/**
 * Registers `campaignctl completion bash|zsh|fish`; the command itself (`../commands/completion.ts`,
 * which reads the registered program: every command and flag) loads when it runs.
 */
import { Argument, type Command } from "commander";
import { type CompletionShell, SHELLS } from "../completion/shells.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";

export function registerCompletion(program: Command, io: Io, report: ReportOutcome): void {
  program
    .command("completion")
    .description("Print the shell completion script (commands and their flags) for bash, zsh or fish")
    .addArgument(new Argument("<shell>", "the shell to complete in").choices(SHELLS))
    .addHelpText(
      "after",
      [
        "",
        "The script is made from the commands and flags of this campaignctl, so it never lags behind;",
        "load it again after an upgrade.",
        "",
        "Examples:",
        "  source <(campaignctl completion bash)                 # this bash session",
        "  campaignctl completion bash > ~/.local/share/bash-completion/completions/campaignctl",
        `  campaignctl completion zsh > "\${fpath[1]}/_campaignctl"  # then start a new zsh`,
        "  campaignctl completion fish > ~/.config/fish/completions/campaignctl.fish",
        "",
      ].join("\n"),
    )
    .action(async (shell: CompletionShell) => {
      const { completionCommand } = await import("../commands/completion.js");
      report(completionCommand(shell, program, io));
    });
}
