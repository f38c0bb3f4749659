/**
 * A `Store` that tells listeners after every change (`mutate`) and replacement (`replace`, i.e.
 * `/_sandbox/reset`). The simulation and the webhook dispatcher hear the world through it: a project
 * scheduled by a request, an event emitted by any producer. Listeners run synchronously after the
 * change; one that changes the world itself runs its own `mutate` (and hears it again).
 */
import { Store } from "../state/store.js";
import type { World } from "../state/world.js";

export class ObservedStore extends Store {
  private readonly listeners = new Set<() => void>();

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  override mutate<T>(change: (world: World) => T): T {
    const result = super.mutate(change);
    this.emit();
    return result;
  }

  override replace(world: World): void {
    super.replace(world);
    this.emit();
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
