// Shared by the benchmarks: percentiles (nearest rank), number formatting and plain-text tables.

/** Nearest-rank percentile of an unsorted sample (NaN when empty). */
export function percentile(sample: readonly number[], p: number): number {
  if (sample.length === 0) return NaN;
  const s = [...sample].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * s.length));
  return s[Math.min(rank, s.length) - 1]!;
}

export const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
export const round = (x: number, d = 2) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : null);
export const fmt = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
export const pad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
export const padEnd = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? padEnd(c, widths[i]!) : pad(c, widths[i]!))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
