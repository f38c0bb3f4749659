/**
 * Registers `campaignctl preview [paths...]` (flags, help, `--contact` parsing, which connection
 * flags go together); the command itself (`../commands/preview.ts`) loads when it runs.
 */
import { type Command, InvalidArgumentError } from "commander";
import { TAG_NAME_PATTERN } from "../../src/message/merge-tags.js";
import { wordList } from "../../src/text/word-list.js";
import type { PreviewFlags } from "../commands/preview.js";
import { addConnectionOptions } from "../flags/connection-flags.js";
import { addNowOption } from "../flags/now-option.js";
import { addOutputOptions, formatGiven, formatOf } from "../flags/output-format.js";
import {
  addProjectAlias,
  addSelectionOptions,
  foldProjectAlias,
  type WithProjectAlias,
} from "../flags/selection-flags.js";
import type { Io } from "../output/io.js";
import type { ReportOutcome } from "../output/outcome.js";

function parseContactValue(raw: string, previous: readonly [string, string][]): [string, string][] {
  const eq = raw.indexOf("=");
  const field = eq < 0 ? raw : raw.slice(0, eq);
  if (eq < 0 || !TAG_NAME_PATTERN.test(field))
    throw new InvalidArgumentError(`expected field=value with a field name such as first_name, got "${raw}"`);
  return [...previous, [field, raw.slice(eq + 1)]];
}

export function registerPreview(program: Command, io: Io, report: ReportOutcome): void {
  const command = program
    .command("preview")
    .description("Show each project's message as contacts would get it, with encoding and SMS segments")
    .argument("[paths...]", "campaign files or directories (read recursively for *.yaml, *.yml)", ["."]);
  addProjectAlias(addSelectionOptions(command, "preview only this project")).option(
    "--contact <field=value>",
    "render for a contact with this value (repeat for more fields)",
    parseContactValue,
    [] as [string, string][],
  );
  addOutputOptions(command);
  addNowOption(command)
    .option("--html <dir>", "write a visual gallery (DIR/index.html) of phone mock-ups instead of the text")
    .option(
      "--plan <file>",
      "with --html: show the lists, counts, costs and statuses of this saved plan (plan --out FILE), offline",
    )
    .option(
      "--forecast",
      "with --html and --sandbox or --base-url: add the forecast's timeline, as plan --forecast computes it",
    );
  addConnectionOptions(command, "with --html: show plan status and cost from")
    .addHelpText(
      "after",
      [
        "",
        "For each project, renders the message for every test contact, for the --contact values if given,",
        "and for a contact with no values (every tag falls back: inline fallback, then merge_defaults,",
        "then empty). Shows characters, GSM-7 or UCS-2 (and which characters forced UCS-2), segments,",
        "and the opt-out footer when it is on. MMS projects (with media) have no segments; surveys show",
        "their intro question only. Problems in the files are printed like `validate` does.",
        "The connection options only go with --html: the gallery then shows each project's plan status",
        "and cost, read-only, by the API's clock (--now is for the offline lint only). DIR is checked",
        "before the first request.",
        "--plan FILE (with --html, instead of a connection) takes the same from a saved plan, offline:",
        "no key, no request; a campaign file that differs from the plan's is a warning.",
        "--forecast (with --html and a connection) adds the timeline of the plan's forecast (docs/forecast.md);",
        "with --plan, the timeline shows when the saved plan was made with plan --forecast.",
        "Exit codes: 0 previewed, 1 the files have errors, --target or --exclude names no project, the plan could",
        "not be made, or DIR cannot be written.",
        "",
        "Examples:",
        "  campaignctl preview examples/",
        "  campaignctl preview examples/ --target gotv-reminder --contact first_name=Đặng",
        "  campaignctl preview . --json | jq '.projects[].renderings[].sms.segments'",
        "  campaignctl preview examples/ --html gallery/ --sandbox",
        "  campaignctl preview examples/ --html gallery/ --plan plan.json",
        "  campaignctl preview examples/ --html gallery/ --sandbox --forecast",
      ].join("\n"),
    )
    .action(async (paths: string[], given: PreviewFlags & WithProjectAlias, self: Command) => {
      const { project: _, ...rest } = given;
      const flags: PreviewFlags = { ...rest, ...foldProjectAlias(given, io) };
      const format = formatOf(flags, formatGiven(self));
      const connectionMisuse = misusedConnection(flags);
      if (typeof format !== "string") self.error(`error: ${format.usage}`);
      else if (connectionMisuse !== undefined) self.error(`error: ${connectionMisuse}`);
      else {
        const { previewCommand } = await import("../commands/preview.js");
        report(await previewCommand(paths, { ...flags, format }, io));
      }
    });
}

/**
 * Why the connection flags cannot be used as given, or undefined when they can: they only go with
 * `--html` (the text preview is offline), `--fixture` names the embedded sandbox's world, and
 * `--forecast` needs a plan made by the command (a saved plan carries its own).
 */
function misusedConnection(flags: PreviewFlags): string | undefined {
  const given = [
    flags.sandbox === true ? "--sandbox" : undefined,
    flags.fixture !== undefined ? "--fixture" : undefined,
    flags.baseUrl !== undefined ? "--base-url" : undefined,
  ].filter((flag) => flag !== undefined);
  if (flags.html === undefined && given.length > 0) {
    const named = `${wordList(given)} ${given.length === 1 ? "goes" : "go"}`;
    return `${named} only with --html DIR: the text preview is offline (add --html DIR for a gallery with the plan's status)`;
  }
  if (flags.fixture !== undefined && flags.sandbox !== true)
    return "--fixture needs --sandbox: it names the embedded sandbox's fixture";
  if (flags.plan !== undefined && flags.html === undefined)
    return "--plan goes only with --html DIR: the gallery shows the saved plan's figures";
  if (flags.plan !== undefined && given.length > 0)
    return `--plan reads a saved plan, offline: it does not go with ${given.join(" or ")}, which make a new one`;
  if (flags.forecast === true && flags.plan !== undefined)
    return "--forecast goes with --sandbox or --base-url: with --plan, the gallery shows the saved plan's forecast when it was made with plan --forecast";
  if (
    flags.forecast === true &&
    (flags.html === undefined || (flags.sandbox !== true && flags.baseUrl === undefined))
  )
    return "--forecast goes only with --html DIR and --sandbox or --base-url: the forecast needs a plan (or make one with plan --forecast --out plan.json, then preview --html DIR --plan plan.json)";
  return undefined;
}
