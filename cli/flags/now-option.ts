/**
 * The `--now TIME` option of the offline commands (`validate`, `preview`), declared once: the lint
 * judges past schedules against that instant instead of the system clock, so a result never
 * depends on today's date.
 */
import type { Command } from "commander";
import { instantArgument } from "./option-parsers.js";

/** The flag `addNowOption` declares, as commander parses it. */
export interface NowFlags {
  /** `--now`: the instant past schedules are judged against; undefined means the system clock. */
  readonly now?: Date;
}

/** Adds `--now <time>` to `command` and returns it for chaining. */
export function addNowOption(command: Command): Command {
  return command.option(
    "--now <time>",
    "judge past schedules against this time (ISO 8601 with a zone) instead of the system clock",
    instantArgument,
  );
}
