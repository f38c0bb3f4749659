/**
 * `campaignctl completion bash|zsh|fish`: prints the completion script of the shell, made from the
 * registered program (every visible command and flag; hidden aliases left out). Registered in
 * `../register/completion.ts`.
 */
import type { Command } from "commander";
import { renderBashCompletion } from "../completion/bash.js";
import { renderFishCompletion } from "../completion/fish.js";
import { completionModel } from "../completion/model.js";
import type { CompletionShell } from "../completion/shells.js";
import { renderZshCompletion } from "../completion/zsh.js";
import type { Io } from "../output/io.js";
import { type Outcome, success } from "../output/outcome.js";

/** The script of `shell` for `program`. Pure. */
export function completionScript(shell: CompletionShell, program: Command): string {
  const model = completionModel(program);
  switch (shell) {
    case "bash":
      return renderBashCompletion(model);
    case "zsh":
      return renderZshCompletion(model);
    case "fish":
      return renderFishCompletion(model);
  }
}

export function completionCommand(shell: CompletionShell, program: Command, io: Io): Outcome {
  io.stdout(completionScript(shell, program));
  return success;
}
