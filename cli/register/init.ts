/**
 * Registers `campaignctl init [DIR]` (flags and help); the command itself (`../commands/init.ts`)
 * loads when it runs.
 */
import { type Command, Option } from "commander";
import type { InitFlags } from "../commands/init.js";
import { CI_SYSTEMS } from "../init/ci-systems.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";

export function registerInit(program: Command, io: Io, report: ReportOutcome): void {
  program
    .command("init")
    .description(
      "Scaffold a campaign repository: an example campaign, the policy file, the schemas, CI pipelines, .gitignore",
    )
    .argument("[dir]", "the directory to scaffold (created if missing)", ".")
    .addOption(
      new Option("--ci <system>", "the CI pipelines to write (none: no pipelines)")
        .choices(CI_SYSTEMS)
        .default("github"),
    )
    .addHelpText(
      "after",
      [
        "",
        "Writes, under DIR: campaigns/example.yaml (a project of the embedded sandbox's example world,",
        "to try plan and apply with --sandbox), campaigns/campaignctl.policy.yaml (an organization's",
        "texting rules, to edit), schemas/ (the JSON Schemas the files' editor modelines name), the",
        "CI pipelines of --ci (copied from this campaignctl's examples/ci) and a .gitignore for",
        ".campaignctl/, saved plans and reports. Never overwrites a file: when one of them exists with",
        "other content, nothing is written. Then prints the next steps.",
        "Exit codes: 0 written; 1 a file exists or cannot be written.",
        "",
        "Examples:",
        "  campaignctl init demo && cd demo && campaignctl plan --sandbox campaigns/",
        "  campaignctl init . --ci gitlab",
        "",
      ].join("\n"),
    )
    .action(async (dir: string, flags: InitFlags) => {
      const { initCommand } = await import("../commands/init.js");
      report(await initCommand(dir, flags, io));
    });
}
