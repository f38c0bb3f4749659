/**
 * `campaignctl validate [paths...]`: loads campaign files, checks them against the schema and the
 * lint rules, and prints every problem. Offline: no API key, no network.
 */
import { type Command, Option } from "commander";
import { lintCampaign } from "../../src/campaign/lint/index.js";
import { loadCampaign } from "../../src/campaign/load.js";
import { summarize, summaryLine, validateJson } from "../../src/campaign/validate-report.js";
import { compareDiagnostics } from "../../src/diagnostics/diagnostic.js";
import { renderDiagnosticsText } from "../../src/report/diagnostics-text.js";
import { type Io, useColor } from "../io.js";
import { failure, success } from "../outcome.js";
import type { ReportOutcome } from "../program.js";

type Format = "text" | "json";

interface ValidateOptions {
  readonly format: Format;
  readonly json?: boolean;
  readonly strict?: boolean;
}

export function registerValidate(program: Command, io: Io, report: ReportOutcome): void {
  program
    .command("validate")
    .description("Check campaign files offline: YAML, schema, references between projects, lint rules")
    .argument("[paths...]", "campaign files or directories (read recursively for *.yaml, *.yml)", ["."])
    .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text"))
    .option("--json", "same as --format json")
    .option("--strict", "fail on warnings too")
    .addHelpText(
      "after",
      [
        "",
        "Prints every problem as file:line:col with the source line, then a summary line.",
        "Exit codes: 0 no errors (with --strict: no warnings either), 1 otherwise.",
        "",
        "Examples:",
        "  campaignctl validate examples/",
        "  campaignctl validate gotv.yaml --strict",
        "  campaignctl validate . --format json | jq .summary",
        "",
      ].join("\n"),
    )
    .action((paths: string[], options: ValidateOptions) => {
      const format: Format = options.json ? "json" : options.format;
      report(validateCommand(paths, format, options.strict === true, io));
    });
}

function validateCommand(paths: readonly string[], format: Format, strict: boolean, io: Io) {
  const loaded = loadCampaign(paths, io.cwd);
  const now = new Date();
  const diagnostics = [...loaded.diagnostics, ...lintCampaign(loaded.campaign, { now })].sort(
    compareDiagnostics,
  );
  const files = loaded.campaign.files;
  const summary = summarize(files, loaded.addresses.length, diagnostics);
  switch (format) {
    case "json":
      io.stdout(`${JSON.stringify(validateJson(files, summary, diagnostics), null, 2)}\n`);
      break;
    case "text": {
      const sources = new Map(files.map((f) => [f.path, f.text]));
      io.stdout(renderDiagnosticsText(diagnostics, { sources, color: useColor(io, "stdout") }));
      io.stdout(`${summaryLine(summary)}\n`);
      break;
    }
  }
  const failed = summary.errors > 0 || (strict && summary.warnings > 0);
  return failed ? failure : success;
}
