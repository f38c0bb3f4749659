/**
 * Registers `campaignctl import [ids...]` (flags and help); the command itself
 * (`../commands/import.ts`, with `src/import/`) loads when it runs.
 */
import type { Command } from "commander";
import type { ImportFlags } from "../commands/import-flags.js";
import { addConnectionOptions } from "../flags/connection-flags.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";

export function registerImport(program: Command, io: Io, report: ReportOutcome): void {
  const command = program
    .command("import")
    .description(
      "Write campaign files from live projects (or update them in place), so that plan shows nothing to do",
    )
    .argument("[ids...]", "project ids to import")
    .requiredOption("--out <dir|file>", "a directory (one file per organization) or one .yaml file")
    .option("--all", "every project the key can see (updated in the last 90 days)")
    .option(
      "--status <status>",
      "projects with this live status (draft, awaiting_test, ready, scheduled, active, paused, completed)",
    )
    .option("--organization <org>", "projects of this organization (name or id)")
    .option("--check", "write nothing; exit 1 when a file would change (drift detection for CI)")
    .option(
      "--template <name>",
      "write ONE template (a message per language) with an instance per project, to --out FILE or DIR/<name>.yaml",
    )
    .option(
      "--language <id=tag>",
      "with --template: the language of a project whose text does not tell (repeatable)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option("--json", "print one JSON document (schemas/import-result.schema.json) on stdout");
  addConnectionOptions(command, "import from")
    .option("--no-color", "no ANSI colour (also: NO_COLOR)")
    .addHelpText(
      "after",
      [
        "",
        "Existing files under --out are updated in place: only what differs from the live projects",
        "changes; comments, key order and formatting stay. Exit codes: 0 done (or, with --check,",
        "nothing would change); 1 an error, or with --check a file would change.",
        "",
        "Examples:",
        "  campaignctl import --sandbox --all --out campaigns/",
        "  campaignctl import 9a000000-0000-4000-8000-000000000004 --out campaigns/early-vote.yaml",
        "  campaignctl import --all --out campaigns/ --check",
        "  campaignctl import --all --template gotv --out campaigns/   # one template for every organization",
        "  campaignctl import --sandbox 9a000000-0000-4000-8000-000000000005 9a000000-0000-4000-8000-000000000006 \\",
        "    --template runoff-notice --language 9a000000-0000-4000-8000-000000000006=es --out runoff-notice.yaml",
        "",
      ].join("\n"),
    )
    .action(async (ids: string[], flags: ImportFlags) => {
      const { importCommand } = await import("../commands/import.js");
      report(await importCommand(ids, flags, io));
    });
}
