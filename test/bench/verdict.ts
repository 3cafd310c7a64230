// Shared by the benchmarks: how a run is judged. Each benchmark collects its results, hands them to
// its own pure checker (test/bench/<name>/checks.ts: invariants → violations) and to its gates (a
// ratio with a floor or a ceiling), prints both, and exits 1 when either fails. Timings are judged
// only through the gates, whose bounds are deliberately loose (the machine is small and shared):
// they catch a path that got several times slower, not noise.

export type Gate = {
  name: string;
  value: number;
  /** The value must be at least this (a floor), … */
  min?: number;
  /** … or at most this (a ceiling). */
  max?: number;
};

/** The gates that fail (a NaN value fails: the figure could not be measured). */
export function failedGates(gates: readonly Gate[]): string[] {
  const out: string[] = [];
  for (const g of gates) {
    const v = g.value;
    if (!Number.isFinite(v)) out.push(`${g.name}: not measured`);
    else if (g.min !== undefined && v < g.min) out.push(`${g.name}: ${v.toFixed(3)} is below its floor ${g.min}`);
    else if (g.max !== undefined && v > g.max) out.push(`${g.name}: ${v.toFixed(3)} is above its ceiling ${g.max}`);
  }
  return out;
}

export function gateLines(gates: readonly Gate[]): string[] {
  return gates.map((g) => {
    const bound = g.min !== undefined ? `floor ${g.min}` : `ceiling ${g.max}`;
    const ok = failedGates([g]).length === 0;
    return `  ${ok ? '✔' : '✖'} ${g.name}: ${Number.isFinite(g.value) ? g.value.toFixed(3) : 'n/a'} (${bound})`;
  });
}

/** Which anomaly to plant into the collected results before they are checked (a self-test of the checker). */
export const plantRequested = (): string | undefined => process.env.ATELIER_BENCH_PLANT || undefined;

/**
 * Prints the verdict and returns the exit code: 1 when an invariant is violated or a gate fails.
 * `planted` names an anomaly planted on purpose (ATELIER_BENCH_PLANT), which must be caught.
 */
export function verdict(name: string, violations: readonly string[], gates: readonly Gate[], planted?: string): number {
  const failed = failedGates(gates);
  const out: string[] = [''];
  out.push(`${name}: gates (ratios against the same run's baselines)`);
  out.push(...gateLines(gates));
  if (planted) out.push(`  (ATELIER_BENCH_PLANT=${planted}: an anomaly was planted into the results on purpose)`);
  if (violations.length) {
    out.push(`INVARIANTS VIOLATED (${violations.length}):`);
    for (const v of violations.slice(0, 20)) out.push(`  ✖ ${v}`);
    if (violations.length > 20) out.push(`  … ${violations.length - 20} more`);
  } else out.push('all invariants hold');
  if (failed.length) out.push(`GATES FAILED: ${failed.join('; ')}`);
  console.log(out.join('\n'));
  return violations.length || failed.length ? 1 : 0;
}

/** Median of a sample (NaN when empty). */
export function median(xs: readonly number[]): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Violations for a delivered sequence that must be exactly 1..expected (or the given ids, each once, in order). */
export function sequenceViolations(label: string, received: readonly number[], expected: readonly number[]): string[] {
  const out: string[] = [];
  const seen = new Map<number, number>();
  for (const x of received) seen.set(x, (seen.get(x) ?? 0) + 1);
  const dups = [...seen].filter(([, n]) => n > 1);
  if (dups.length) out.push(`${label}: ${dups.length} duplicated (e.g. ${dups.slice(0, 3).map(([x, n]) => `${x}×${n}`).join(', ')})`);
  const missing = expected.filter((x) => !seen.has(x));
  if (missing.length) out.push(`${label}: ${missing.length} missing (gap; e.g. ${missing.slice(0, 3).join(', ')})`);
  const want = new Set(expected);
  const extra = [...seen.keys()].filter((x) => !want.has(x));
  if (extra.length) out.push(`${label}: ${extra.length} unexpected (e.g. ${extra.slice(0, 3).join(', ')})`);
  let disorder = 0;
  for (let i = 1; i < received.length; i++) if (received[i]! < received[i - 1]!) disorder++;
  if (disorder) out.push(`${label}: out of order ${disorder} times`);
  return out;
}

export const range1 = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/**
 * A target the product aims at (a figure with its aim and the baseline it is measured beside).
 * Printed with ✔/✖ so every run shows where the product stands against its aims; unlike a gate it
 * does not change the exit code — gates are the floors a regression must not cross, targets the
 * figures to reach.
 */
export type Target = {
  name: string;
  value: number;
  unit?: string;
  /** The value must be at least (≥) or at most (≤) `bound` to meet the target. */
  aim: '≥' | '≤';
  bound: number;
  /** What it was measured against in the same run, in words with its figure. */
  baseline?: string;
};

export const targetMet = (t: Target): boolean => Number.isFinite(t.value) && (t.aim === '≥' ? t.value >= t.bound : t.value <= t.bound);

export function targetLines(title: string, targets: readonly Target[]): string[] {
  const met = targets.filter(targetMet).length;
  const out = ['', `${title}: targets (${met} of ${targets.length} met; they do not change the exit code, the gates do)`];
  for (const t of targets) {
    const unit = t.unit ? ` ${t.unit}` : '';
    const v = Number.isFinite(t.value) ? `${+t.value.toFixed(t.value < 10 ? 2 : 1)}${unit}` : 'n/a';
    out.push(`  ${targetMet(t) ? '✔' : '✖'} ${t.name}: ${v} (target ${t.aim} ${t.bound}${unit})${t.baseline ? ` — ${t.baseline}` : ''}`);
  }
  return out;
}
