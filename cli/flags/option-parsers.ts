/**
 * The argument parsers commander options share (`--port`, `--parallelism`, `--since`, `--interval`,
 * repeatable flags): each turns the text into its value or throws commander's InvalidArgumentError,
 * which commander reports as a usage error naming the option.
 */
import { InvalidArgumentError } from "commander";
import { parseDuration } from "../../src/text/parse-duration.js";
import { parseInstant } from "./instant.js";

/** A whole number from `min` to `max`. */
export function integerIn(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max)
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return n;
  };
}

/** An ISO 8601 date-time with an explicit zone (`Z` or an offset), so that it means one instant. */
export function instantArgument(value: string): Date {
  const at = parseInstant(value);
  if (at === undefined)
    throw new InvalidArgumentError("expected an ISO 8601 date-time with a zone, e.g. 2026-12-01T15:00:00Z");
  return at;
}

/** A duration (`90s`, `10m`, `1h30m`; at most 24h) in milliseconds; `examples` go into the error. */
export function durationIn(examples: string): (value: string) => number {
  return (value) => {
    const ms = parseDuration(value);
    if (ms === undefined)
      throw new InvalidArgumentError(`expected a duration such as ${examples} (at most 24h)`);
    return ms;
  };
}

/** A repeatable option: each use appends its value. */
export function collect(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
