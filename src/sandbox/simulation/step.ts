/** What every simulation step is given: the world inside one `store.mutate`, and the knobs. */
import type { Store } from "../state/store.js";
import type { ProjectRecord, World } from "../state/world.js";
import type { DailySends } from "./daily-cap.js";
import type { SimulationSettings } from "./settings.js";

/** One step of the simulation at virtual time `nowMs` (call its functions inside `store.mutate`). */
export interface StepContext {
  readonly store: Store;
  readonly world: World;
  readonly nowMs: number;
  readonly seed: number;
  readonly settings: SimulationSettings;
  readonly dailySends: DailySends;
  /**
   * Projects whose state changed in this step (status, pause reason, recipients); each is
   * `touch`ed once when the step ends. Counters are statistics, not edits: moving them alone does
   * not change `updated_at`, so a sending project keeps its version (plans and caches stay valid).
   */
  readonly dirty: Set<ProjectRecord>;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
