// Judging an answer to a hostile request: a typed client error that leaks nothing, quickly, and no
// write (row counts of every table before and after).
import { ErrorCode } from '../../server/errors.ts';
import { t } from './state.ts';
import type { Op, Outcome } from './transport.ts';

const LEAKS = /stack|prisma|postgres|SELECT |INSERT |UPDATE |invocation|\.ts:|node_modules|constraint|Unexpected error/i;
const CLIENT_CODES = new Set<string>(Object.values(ErrorCode).filter((c) => c !== 'INTERNAL' && c !== 'RATE_LIMITED'));
export const SLOW_MS = 5000;

type Stats = { requests: number; maxMs: number; maxAt: string; overOneSecond: number };
export const stats: Stats = { requests: 0, maxMs: 0, maxAt: '', overOneSecond: 0 };

export function judge(what: string, op: Op, o: Outcome, failures: string[]) {
  stats.requests++;
  // An accepted subscription stays open: the wait for its first event is no response time.
  if (o.open) return;
  if (o.ms > stats.maxMs) {
    stats.maxMs = o.ms;
    stats.maxAt = what;
  }
  if (o.ms > 1000) stats.overOneSecond++;
  const fail = (why: string) => failures.push(`${what} [${o.transport}]: ${why}`);
  if (o.hung) return fail(`no answer (${o.unparsable ?? 'timeout'})`);
  if (o.ms > SLOW_MS) fail(`took ${Math.round(o.ms)} ms`);
  if (o.status !== undefined && o.status >= 500) fail(`HTTP ${o.status}`);
  if (o.unparsable !== undefined) return fail(`not a GraphQL response: ${o.unparsable}`);
  if (o.closed !== undefined) return fail(`socket closed (${o.closed})`);
  for (const e of o.errors) {
    const code = e.extensions?.code;
    if (!code || !CLIENT_CODES.has(code)) fail(`code ${code ?? 'none'}: ${e.message.slice(0, 200)}`);
    else if (LEAKS.test(e.message)) fail(`message leaks internals: ${e.message.slice(0, 200)}`);
    else if (!e.message.trim()) fail('empty message');
  }
  if (op === 'mutation' && o.errors.length === 0) fail(`accepted: ${JSON.stringify(o.data).slice(0, 200)}`);
}

export async function rowCounts(): Promise<Record<string, number>> {
  const p = t.app.deps.prisma;
  const tables = await p.$queryRawUnsafe<{ t: string }[]>(
    `SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY 1`,
  );
  const [row] = await p.$queryRawUnsafe<Record<string, number>[]>(`SELECT ${tables.map(({ t: n }) => `(SELECT count(*) FROM "${n}")::int AS "${n}"`).join(', ')}`);
  return row!;
}

export function changedTables(a: Record<string, number>, b: Record<string, number>): string[] {
  return Object.keys({ ...a, ...b }).filter((k) => a[k] !== b[k]).map((k) => `${k} ${a[k]} → ${b[k]}`);
}
