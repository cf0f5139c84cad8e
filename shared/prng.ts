/**
 * A small seeded pseudo-random generator (the random draw, the simulated matches of tests and benchmarks; pure: the caller gives the seed; the same seed
 * gives the same numbers on every machine). mulberry32: 32-bit state, period 2^32, plenty for shuffling a
 * field of at most a few hundred players; not for anything secret.
 */

/** A generator of floats in [0, 1) from the 32-bit `seed` (any integer; taken modulo 2^32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A copy of `items` shuffled by Fisher–Yates with mulberry32(`seed`): the same seed, the same order. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const next = mulberry32(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
