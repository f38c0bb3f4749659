/** Types of forecast-input.mjs, for test/forecast/no-intl.test.ts. */
import type { Capacity, ForecastProject } from "../src/forecast/types.js";

export declare const NOW: number;
export declare const RULE: {
  readonly names: readonly ("cap-pause" | "past-deadline" | "quiet-hours" | "over-cap")[];
};
export declare function forecastInput(
  n: number,
  defaultCapacity: Capacity,
): { projects: ForecastProject[]; capacity: Capacity; plan: unknown };
