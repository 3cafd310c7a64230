// A seeded random source (mulberry32) for the chaos run: the same --seed plans the same prompts,
// signals and kill schedule (what the system does with them depends on timing, of course).

export type Rng = {
  (): number;
  int(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
  /** A child source with its own stream (so one consumer's draws do not shift another's). */
  fork(label: string): Rng;
};

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng = next as Rng;
  rng.int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  rng.pick = (xs) => xs[Math.floor(next() * xs.length)]!;
  rng.chance = (p) => next() < p;
  rng.fork = (label) => {
    let h = seed >>> 0;
    for (const c of label) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
    return createRng(h);
  };
  return rng;
}

