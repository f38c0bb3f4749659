/**
 * The `--now TIME` option of the offline commands (`validate`, `preview`), declared once: the lint
 * judges past schedules against that instant instead of the system clock, so a result never
 * depends on today's date.
 */
import { type Command, InvalidArgumentError } from "commander";
import { parseInstant } from "./instant.js";

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
    parseNow,
  );
}

/** `--now`: an ISO 8601 date-time with an explicit zone (`Z` or an offset), so it means one instant. */
function parseNow(value: string): Date {
  const instant = parseInstant(value);
  if (instant === undefined)
    throw new InvalidArgumentError("expected an ISO 8601 date-time with a zone, e.g. 2026-12-01T15:00:00Z");
  return instant;
}
