// Seeded randomness for scenario runs: paraphrase picks, the user's choices and provider faults are
// drawn from the run's seed, so a run can be repeated exactly.

/** Spreads nearby seeds apart (splitmix32), so scenario i and i+1 of one run draw independently. */
export function mixSeed(seed: number): number {
  let z = (seed + 0x9e3779b9) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0 || 1;
}

/** A small deterministic generator (xorshift32) for the paraphrase picks and the user's choices. */
export function seededRandom(seed: number): () => number {
  let s = mixSeed(seed);
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}
