/**
 * Registers `campaignctl version [--json]` (the same as `--version`, with the Node.js version, the
 * platform and the API contract; with `--json`, one document); the command itself
 * (`../commands/version.ts`) loads when it runs.
 */
import type { Command } from "commander";
import type { VersionFlags } from "../commands/version.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";

export function registerVersion(program: Command, io: Io, report: ReportOutcome): void {
  program
    .command("version")
    .description("Print the version of campaignctl, of Node.js and of the API contract it speaks")
    .option("--json", "print one JSON document (schemas/version-result.schema.json) on stdout")
    .addHelpText(
      "after",
      [
        "",
        "`campaignctl --version` (or -v) prints the version number alone.",
        "",
        "Examples:",
        "  campaignctl version",
        "  campaignctl version --json | jq -r .version",
        "",
      ].join("\n"),
    )
    .action(async (flags: VersionFlags) => {
      const { versionCommand } = await import("../commands/version.js");
      report(versionCommand(flags, io));
    });
}
