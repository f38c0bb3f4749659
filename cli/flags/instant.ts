/**
 * A command-line instant: an ISO 8601 date-time with an explicit zone (`Z` or an offset), so it means
 * one moment wherever the command runs (`validate --now`, `sandbox --start`).
 */
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** The instant `value` names, or undefined when it is not an ISO 8601 date-time with a zone. */
export function parseInstant(value: string): Date | undefined {
  const ms = Date.parse(value);
  return ISO_WITH_ZONE.test(value) && !Number.isNaN(ms) ? new Date(ms) : undefined;
}
