// Judging an answer to a hostile request: a typed client error that leaks nothing, within a second,
// and no write (a fingerprint of the content of every table before and after).
import { readFileSync } from 'node:fs';
import { ErrorCode } from '../../server/errors.ts';
import { t } from './state.ts';
import type { Op, Outcome } from './transport.ts';

const LEAKS = /stack|prisma|postgres|SELECT |INSERT |UPDATE |invocation|\.ts:|node_modules|constraint|Unexpected error/i;
const CLIENT_CODES = new Set<string>(Object.values(ErrorCode).filter((c) => c !== 'INTERNAL' && c !== 'RATE_LIMITED'));
/** A hostile request must be answered within this, on a second try when the first was slower (see `isSlow`). */
export const SLOW_MS = 1000;

type Stats = {
  /** Answers judged (a re-sent request counts twice). */
  requests: number;
  /** The slowest answer that counted (first answers that were re-sent excluded). */
  maxMs: number;
  maxAt: string;
  /** Requests slower than SLOW_MS the first time (re-sent once). */
  slowFirst: string[];
  /** Of those, the ones slower than SLOW_MS again: hangs. */
  slowAgain: string[];
};
export const stats: Stats = { requests: 0, maxMs: 0, maxAt: '', slowFirst: [], slowAgain: [] };

/**
 * Whether an answer took longer than SLOW_MS (or never came). Such a request is sent once more: a
 * real hang is deterministic and is slow again, a loaded machine is not.
 */
export const isSlow = (o: Outcome) => !o.open && (o.hung === true || o.ms > SLOW_MS);

/**
 * Judges one answer. `timed: false` for a first answer that was slow and is being re-sent: its
 * content is judged, its time (or missing answer) is left to the second try.
 */
export function judge(what: string, op: Op, o: Outcome, failures: string[], { timed = true }: { timed?: boolean } = {}) {
  stats.requests++;
  // An accepted subscription stays open: the wait for its first event is no response time.
  if (o.open) return;
  const fail = (why: string) => failures.push(`${what} [${o.transport}]: ${why}`);
  if (timed) {
    if (o.ms > stats.maxMs) {
      stats.maxMs = o.ms;
      stats.maxAt = what;
    }
    if (o.hung) return fail(`no answer (${o.unparsable ?? 'timeout'})`);
    if (o.ms > SLOW_MS) fail(`took ${Math.round(o.ms)} ms`);
  } else if (o.hung) return;
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

// ---------------------------------------------------------------------------------------------
// "Nothing written": a fingerprint of each table's content

/**
 * Columns the server writes while the sweep runs whatever the requests are; they are left out of
 * their table's fingerprint (the rest of the row still counts). Nothing else is left out.
 */
const UNFINGERPRINTED_COLUMNS: Record<string, Record<string, string>> = {
  api_tokens: {
    // Authentication stamps the token it checked, at most once a minute per token (auth/viewer.ts),
    // on any request, hostile or not.
    last_used_at: 'stamped by authentication on any request',
  },
  runtime_processes: {
    // The API process's own heartbeat row moves forward every beat (store/processes.ts), requests
    // or not.
    last_beat_at: 'the API process heartbeat',
  },
};

/** The tables Prisma maps (`@@map` in prisma/schema.prisma). */
function mappedTables(): string[] {
  const schema = readFileSync(new URL('../../prisma/schema.prisma', import.meta.url), 'utf8');
  return [...schema.matchAll(/@@map\("([^"]+)"\)/g)].map((m) => m[1]!);
}

let plan: string | undefined;

/** One SELECT giving, per table, md5 of its rows as text in primary-key order. */
async function fingerprintQuery(): Promise<string> {
  if (plan) return plan;
  const p = t.app.deps.prisma;
  const columns = await p.$queryRawUnsafe<{ t: string; cols: string[] }[]>(
    `SELECT table_name::text AS t, array_agg(column_name::text ORDER BY ordinal_position) AS cols
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' GROUP BY 1 ORDER BY 1`,
  );
  const keys = await p.$queryRawUnsafe<{ t: string; pk: string[] }[]>(
    `SELECT tc.table_name::text AS t, array_agg(k.column_name::text ORDER BY k.ordinal_position) AS pk
       FROM information_schema.table_constraints tc
       JOIN information_schema.key_column_usage k ON k.constraint_schema = tc.constraint_schema AND k.constraint_name = tc.constraint_name AND k.table_name = tc.table_name
      WHERE tc.table_schema = 'public' AND tc.constraint_type = 'PRIMARY KEY' GROUP BY 1`,
  );
  const pk = new Map(keys.map((k) => [k.t, k.pk]));
  const present = new Set(columns.map((c) => c.t));
  const missing = mappedTables().filter((name) => !present.has(name));
  if (missing.length) throw new Error(`tables Prisma maps are missing from the database: ${missing.join(', ')}`);
  for (const [table, cols] of Object.entries(UNFINGERPRINTED_COLUMNS)) {
    const have = columns.find((c) => c.t === table)?.cols ?? [];
    for (const col of Object.keys(cols)) if (!have.includes(col)) throw new Error(`${table}.${col} is left out of the fingerprint but does not exist: update UNFINGERPRINTED_COLUMNS`);
  }
  const q = (id: string) => `"${id.replace(/"/g, '""')}"`;
  const parts = columns.map(({ t: table, cols }) => {
    const skip = UNFINGERPRINTED_COLUMNS[table] ?? {};
    const kept = cols.filter((c) => !(c in skip));
    const row = kept.length === cols.length ? 'x::text' : `ROW(${kept.map((c) => `x.${q(c)}`).join(', ')})::text`;
    // In primary-key order (a table without one: in the order of the rows' text).
    const order = pk.get(table)?.map((c) => `x.${q(c)}`).join(', ') ?? row;
    return `(SELECT md5(coalesce(string_agg(${row}, E'\\n' ORDER BY ${order}), '')) FROM ${q(table)} x) AS ${q(table)}`;
  });
  plan = `SELECT ${parts.join(', ')}`;
  return plan;
}

export type Fingerprint = Record<string, string>;

/** md5 of every table's content (every row, every column but UNFINGERPRINTED_COLUMNS), by table. */
export async function fingerprint(): Promise<Fingerprint> {
  const [row] = await t.app.deps.prisma.$queryRawUnsafe<Fingerprint[]>(await fingerprintQuery());
  return row!;
}

/** The tables whose content differs between two fingerprints (rows added, removed or changed in place). */
export function changedTables(a: Fingerprint, b: Fingerprint): string[] {
  return Object.keys({ ...a, ...b }).filter((k) => a[k] !== b[k]);
}
