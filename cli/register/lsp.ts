/**
 * Registers `campaignctl lsp` (flags and help); the server (`../commands/lsp.ts`, `../lsp/`) loads
 * when it runs.
 */
import { type Command, InvalidArgumentError } from "commander";
import type { LspOptions } from "../commands/lsp.js";
import { DEFAULT_DEBOUNCE_MS } from "../flags/flag-defaults.js";
import { addNowOption } from "../flags/now-option.js";
import { addPolicyOptions } from "../flags/policy-flags.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";

function debounceArgument(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 60_000)
    throw new InvalidArgumentError("a whole number of milliseconds from 0 to 60000, such as 200");
  return Number(value);
}

export function registerLsp(program: Command, io: Io, report: ReportOutcome): void {
  const command = program
    .command("lsp")
    .description("Run the language server for campaign files over stdio: validate's findings as you type")
    .option("--stdio", "talk over stdin and stdout (the default and only transport; editors pass it)")
    .option(
      "--debounce <ms>",
      "milliseconds of quiet after an edit before the document is checked",
      debounceArgument,
      DEFAULT_DEBOUNCE_MS,
    );
  addPolicyOptions(command);
  addNowOption(command)
    .addHelpText(
      "after",
      [
        "",
        "Started by an editor, not by hand: it speaks the Language Server Protocol on stdin/stdout.",
        "On open and on every change of a campaign file it publishes exactly what",
        "`campaignctl validate FILE` reports for the unsaved text (codes, ranges, severities, hints),",
        "with the policy files above the file in force, and findings across the files of the",
        "workspace folder; quick fixes and hover. It completes keys and values from the schema,",
        "merge tags, `after:` addresses and, from the offline snapshot that `plan` and `import`",
        "write (.campaignctl/snapshot.json), names of lists, numbers, brands and registrations.",
        "It never makes a network request.",
        "Set-ups for VS Code, Neovim and Helix: docs/editors.md.",
        "Exit codes: 0 after the editor's shutdown and exit, 1 when the session ends without shutdown.",
        "",
        "Examples:",
        "  campaignctl lsp",
        "  campaignctl lsp --policy org.policy.yaml --debounce 300",
        "",
      ].join("\n"),
    )
    .action(async (options: LspOptions) => {
      const { lspCommand } = await import("../commands/lsp.js");
      report(await lspCommand(options, io));
    });
}
