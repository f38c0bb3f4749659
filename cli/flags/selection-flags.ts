/**
 * The selection options of `preview`, `plan` and `apply`, declared once: `--target` and `--exclude`,
 * each repeatable, which commander collects into the command's `target` and `exclude` lists. The
 * same name in every command; `plan` and `apply` also cover what a target is ordered `after`
 * (src/plan/select.ts), `preview` shows exactly the projects named. `--project`, the flag `preview`
 * had before, is a hidden alias of `--target` there that says it is deprecated.
 */
import { type Command, Option } from "commander";
import type { Io } from "../output/io.js";
import { collect } from "./option-parsers.js";

/** The flags `addSelectionOptions` declares, as commander parses them. */
export interface SelectionFlags {
  readonly target: readonly string[];
  readonly exclude: readonly string[];
}

/** Adds `--target` and `--exclude` to `command`; `targetHelp` says what a target covers. */
export function addSelectionOptions(command: Command, targetHelp: string): Command {
  return command
    .option("--target <address>", `${targetHelp} (repeatable)`, collect, [])
    .option(
      "--exclude <address>",
      "leave this project out; a template name or an organization leaves all of its projects out (repeatable)",
      collect,
      [],
    );
}

/** The flags with the deprecated `--project` alias, as commander parses them. */
export interface WithProjectAlias extends SelectionFlags {
  /** `--project`: hidden, deprecated; folded into `target`. */
  readonly project: readonly string[];
}

/** Adds the hidden `--project <address>` (repeatable), the deprecated spelling of `--target`. */
export function addProjectAlias(command: Command): Command {
  return command.addOption(
    new Option("--project <address>", "deprecated: use --target").hideHelp().argParser(collect).default([]),
  );
}

/** `--project` folded into `--target`, with a warning on stderr when it was used. */
export function foldProjectAlias(flags: WithProjectAlias, io: Io): SelectionFlags {
  if (flags.project.length === 0) return { target: flags.target, exclude: flags.exclude };
  io.stderr("campaignctl: warning: --project is deprecated and will be removed: use --target\n");
  return { target: [...flags.target, ...flags.project], exclude: flags.exclude };
}
