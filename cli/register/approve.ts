/**
 * Registers `campaignctl approve PLANFILE --key KEY [--author]` (flags and help); the command itself
 * (`../commands/approve.ts`, with ssh-keygen and the policy lookup) loads when it runs.
 */
import type { Command } from "commander";
import type { ApproveFlags } from "../commands/approve.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";

export function registerApprove(program: Command, io: Io, report: ReportOutcome): void {
  program
    .command("approve")
    .description("Sign a saved plan with your SSH key: an approval its policy's require_approvals counts")
    .argument("<planfile>", "the saved plan (plan --out FILE)")
    .requiredOption("--key <file>", "your SSH private key (or its .pub file, with the key in ssh-agent)")
    .option(
      "--author",
      "sign as the plan's author (the person who made it; their own approvals do not count)",
    )
    .option(
      "--policy <file>",
      "one more policy on top of those found above the plan's files, as given to apply",
    )
    .option("--json", "print one JSON document (schemas/approval.schema.json) on stdout")
    .addHelpText(
      "after",
      [
        "",
        "The signature (ssh-keygen -Y sign, namespace campaignctl-approval; with --author",
        "campaignctl-plan-author) names the plan's sha256, and is verified against the allowed signers",
        "file of the policy's require_approvals before it is written to approvals/<sha256>/ beside the",
        "plan. apply PLANFILE counts the approvals there (docs/policy.md#require_approvals).",
        "",
        "Examples:",
        "  campaignctl approve plan.json --author --key ~/.ssh/id_ed25519   # the plan's author, once",
        "  campaignctl approve plan.json --key ~/.ssh/id_ed25519            # each approver",
        "",
      ].join("\n"),
    )
    .action(async (planFile: string, flags: ApproveFlags) => {
      const { approveCommand } = await import("../commands/approve.js");
      report(await approveCommand(planFile, flags, io));
    });
}
