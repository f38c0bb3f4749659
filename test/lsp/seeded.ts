/** A seeded random number generator for the randomized tests (mulberry32): same seed, same series. */

/** Numbers in [0, 1), as Math.random gives them. */
export type Rng = () => number;

export function seeded(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One of `items`, chosen by `rng`. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  if (items.length === 0) throw new Error("test bug: nothing to pick from");
  return items[Math.floor(rng() * items.length)] as T;
}
