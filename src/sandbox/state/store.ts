/**
 * The one store of the sandbox: the World plus persistence. Every change goes through `mutate`,
 * which persists the whole state atomically (temp file + rename) when a state path is set, so a
 * crash never leaves a half-written file. Reads go through `world` (treat it as read-only).
 */
import type { VirtualClock } from "../clock.js";
import { deterministicUuid } from "../ids.js";
import { saveState } from "./persist.js";
import type { EffectKind, EffectRecord, World } from "./world.js";

export class Store {
  private current: World;

  constructor(
    world: World,
    private readonly clock: VirtualClock,
    private readonly seed: number,
    private readonly statePath: string | undefined,
  ) {
    this.current = world;
  }

  /** The live world. Mutating it outside `mutate` is a bug: nothing would be persisted. */
  get world(): World {
    return this.current;
  }

  mutate<T>(change: (world: World) => T): T {
    const result = change(this.current);
    this.persist();
    return result;
  }

  /** Replaces the whole world (reset to the fixture) and persists it. */
  replace(world: World): void {
    this.current = world;
    this.persist();
  }

  /** Next deterministic UUID; call inside `mutate` (it advances the persisted sequence). */
  nextId(world: World): string {
    world.seq += 1;
    return deterministicUuid(this.seed, world.seq);
  }

  recordEffect(
    world: World,
    kind: EffectKind,
    projectId: string,
    changed: boolean,
    idempotencyKey: string | null,
  ): EffectRecord {
    world.seq += 1;
    const effect: EffectRecord = {
      seq: world.seq,
      kind,
      project_id: projectId,
      at: this.clock.now().toISOString(),
      changed,
      idempotency_key: idempotencyKey,
    };
    world.effects.push(effect);
    return effect;
  }

  persist(): void {
    if (this.statePath !== undefined) saveState(this.statePath, this.current, this.clock.nowMs());
  }
}
