// bench:limits' printed report and its BENCH_RESULT line.
import { fmt, percentile, round, table } from '../stats.ts';
import { withinFloors } from './checks.ts';
import { BODY_LIMIT, CALLERS, HEALTH_FLOOR_MS, QUICK, REPS, SIZES, TOKEN_LIMIT, type Who } from './config.ts';
import type { Accepted, Row } from './measure.ts';

export function reportLines(rows: Row[], accepted: Accepted[], failures: string[], totalS: number): string[] {
  const out: string[] = [];
  out.push('');
  out.push(`Atelier expensive-document benchmark (${QUICK ? 'quick' : 'full'}, ${REPS} repetitions: median ms, slowest in brackets) — node ${process.version}`);
  out.push(`Server: server/main.ts --api-only in its own process, default limits; body limit ${BODY_LIMIT} bytes.`);
  out.push(`Floors: refused within 50 ms (2 KB), 500 ms (100 KB), 2 s (1 MB); /health within ${HEALTH_FLOOR_MS} ms meanwhile.`);
  out.push(`[≤ ${TOKEN_LIMIT} tokens]: as much of the attack as stays under the token limit (the most work past the parser), comment-padded to the size;`);
  out.push(`[fills]: the attack fills the size.`);
  out.push('');
  const docs = [...new Set(rows.map((r) => r.doc))];
  const cell = (doc: string, size: string, who: Who) => {
    const r = rows.find((x) => x.doc === doc && x.size === size && x.who === who)!;
    return `${fmt(r.p50Ms, 0)} (${fmt(r.maxMs, 0)})${withinFloors(r) ? '' : ' ✗'}`;
  };
  const header = ['document — ms to refusal: no token / forged token / valid token', ...SIZES.map((s) => s.label)];
  out.push(table(header, docs.map((d) => [d, ...SIZES.map((s) => CALLERS.map((w) => cell(d, s.label, w)).join(' / '))])));
  out.push('');
  out.push('How each document was refused with a valid token (2 KB | 1 MB):');
  const reason = (d: string, size: string) => {
    const r = rows.find((x) => x.doc === d && x.size === size && x.who === 'valid token')!;
    return r.what.replace(/^BAD_USER_INPUT: /, '').replace(/: it has more than \d+ tokens \(the limit\)/, '').replace(/; send them in separate requests/, '').slice(0, 90);
  };
  for (const d of docs) out.push(`  ${d}: ${reason(d, '2 KB')} | ${reason(d, '1 MB')}`);
  out.push('');
  out.push(
    `/health meanwhile: worst median ${fmt(Math.max(...rows.map((r) => r.healthMs)))} ms (floor ${HEALTH_FLOOR_MS} ms), slowest single answer ${fmt(Math.max(...rows.map((r) => r.healthMaxMs)))} ms; total ${fmt(totalS)} s.`,
  );
  for (const s of SIZES) {
    const xs = rows.filter((r) => r.size === s.label);
    out.push(
      `  ${s.label}: slowest median refusal ${fmt(Math.max(...xs.map((r) => r.p50Ms)))} ms (floor ${s.floorMs} ms), slowest single ${fmt(Math.max(...xs.map((r) => r.maxMs)))} ms`,
    );
  }
  out.push('');
  out.push('Accepted at the limits (not floors; a valid token, the bench database has one task):');
  for (const a of accepted) {
    out.push(`  ${a.name}: ${a.ok ? 'answered' : 'REFUSED'} in ${fmt(percentile(a.ms, 50))} ms (median), /health worst ${fmt(a.healthMaxMs)} ms meanwhile`);
  }
  out.push('');
  out.push(failures.length ? `FAILED (${failures.length}):\n  ${failures.join('\n  ')}` : 'All documents refused within their floors.');
  return out;
}

export function resultJson(rows: Row[], accepted: Accepted[], failures: string[]) {
  return {
    mode: QUICK ? 'quick' : 'full',
    reps: REPS,
    rows: rows.map((r) => ({ ...r, maxMs: round(r.maxMs), p50Ms: round(r.p50Ms), healthMs: round(r.healthMs), healthMaxMs: round(r.healthMaxMs) })),
    accepted: accepted.map((a) => ({ name: a.name, p50Ms: round(percentile(a.ms, 50)), healthMaxMs: round(a.healthMaxMs), ok: a.ok })),
    failures,
  };
}
