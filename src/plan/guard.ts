/** A project's guard as the plan shows it (snake_case, unset rates as null). Pure. */
import type { GuardSpec } from "../campaign/model.js";
import type { PlanGuard } from "./types.js";

export function guardOf(guard: GuardSpec | undefined): PlanGuard | null {
  if (guard === undefined) return null;
  return {
    max_failure_rate: guard.maxFailureRate ?? null,
    max_opt_out_rate: guard.maxOptOutRate ?? null,
    min_sample: guard.minSample,
  };
}
