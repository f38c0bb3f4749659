/**
 * Random test inputs that can be replayed: every random input is drawn from a seed, and the seed is
 * part of the test's name, so a failure prints it. `CAMPAIGNCTL_TEST_SEED` adds one more seed to
 * the fixed ones (to explore, or to replay a seed seen elsewhere).
 */
import { seededRandom } from "../../src/sandbox/ids.js";

/** The fixed seeds of the random-garbage cases, plus `CAMPAIGNCTL_TEST_SEED` when set. */
export const GARBAGE_SEEDS: readonly number[] = [
  1,
  7,
  42,
  20261124,
  ...(process.env.CAMPAIGNCTL_TEST_SEED === undefined ? [] : [Number(process.env.CAMPAIGNCTL_TEST_SEED)]),
];

/** `length` bytes drawn from `seed`. */
export function seededBytes(seed: number, length: number): Uint8Array {
  const next = seededRandom(seed);
  return Uint8Array.from({ length }, () => Math.floor(next() * 256));
}

/** Numbers in [0, 1), as Math.random gives them: a series of `seededRandom` (src/sandbox/ids.ts, mulberry32). */
export type Rng = () => number;

/** One of `items`, chosen by `rng`. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  if (items.length === 0) throw new Error("test bug: nothing to pick from");
  return items[Math.floor(rng() * items.length)] as T;
}
