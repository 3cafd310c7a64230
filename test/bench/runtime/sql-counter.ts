// Counts the SQL this process sends through `pg` (Prisma's driver adapter uses it), by wrapping
// pg.Client.prototype.query, except pg-boss's own pool (application_name atelier-scheduler) and
// clients marked `uncounted` (the baseline's). Transactions are delimited by the BEGIN / COMMIT
// statements Prisma sends.
//
// Why wrap the client rather than read pg_stat_statements: the extension is not loaded on every
// PostgreSQL (it needs shared_preload_libraries), its counters are per server and would mix in
// other sessions (pg-boss, other benchmarks and tests on the same server), and it cannot tell which
// statements ran inside one transaction. The wrapper sees exactly this process's statements, in
// order, per connection, during a measured window.
import pg from 'pg';

export type SqlCounts = {
  statements: number;
  /** BEGIN…COMMIT transactions committed. */
  txCommits: number;
  /** …of which wrote something (INSERT/UPDATE/DELETE, or a WITH … UPDATE/INSERT). */
  txWriteCommits: number;
  txRollbacks: number;
  /** Writes outside a transaction (each its own commit), e.g. lease renewals, snapshots. */
  autocommitWrites: number;
  /** Reads outside a transaction (including SELECT pg_notify). */
  autocommitReads: number;
  /**
   * Event sequencing runs (atelier_sequence_events, each its own commit when it has anything to
   * sequence): after the step's commits, off its path, coalesced per process; counted apart from
   * the step's own commits and always as a commit (an upper bound).
   */
  sequencerCommits: number;
};
export const zeroCounts = (): SqlCounts => ({ statements: 0, txCommits: 0, txWriteCommits: 0, txRollbacks: 0, autocommitWrites: 0, autocommitReads: 0, sequencerCommits: 0 });
/** Commits of a run: transactions plus autocommit writes. */
export const commitsOf = (c: SqlCounts) => c.txCommits + c.autocommitWrites;

export function addCounts(a: SqlCounts, b: SqlCounts): SqlCounts {
  const out = zeroCounts();
  for (const k of Object.keys(out) as (keyof SqlCounts)[]) out[k] = a[k] + b[k];
  return out;
}

const sqlCounter = { on: false, c: zeroCounts() };
const openTx = new WeakMap<object, { wrote: boolean }>();
export const uncounted = new WeakSet<object>();

function isWrite(text: string): boolean {
  const s = text.replace(/FOR\s+(NO\s+KEY\s+)?UPDATE|FOR\s+SHARE/gi, '');
  return /^\s*(INSERT|UPDATE|DELETE|MERGE)\b/i.test(s) || (/^\s*WITH\b/i.test(s) && /\b(INSERT|UPDATE|DELETE)\b/i.test(s));
}

function countStatement(client: object, q: unknown) {
  const params = (client as { connectionParameters?: { application_name?: string } }).connectionParameters;
  if (uncounted.has(client) || params?.application_name === 'atelier-scheduler') return;
  const text = typeof q === 'string' ? q : typeof (q as { text?: unknown })?.text === 'string' ? (q as { text: string }).text : '';
  const c = sqlCounter.c;
  c.statements++;
  const head = text.trimStart().slice(0, 24).toUpperCase();
  const tx = openTx.get(client);
  if (head.startsWith('BEGIN') || head.startsWith('START TRANSACTION')) openTx.set(client, { wrote: false });
  else if (head.startsWith('COMMIT')) {
    c.txCommits++;
    if (tx?.wrote) c.txWriteCommits++;
    openTx.delete(client);
  } else if (head.startsWith('ROLLBACK') && !head.startsWith('ROLLBACK TO')) {
    c.txRollbacks++;
    openTx.delete(client);
  } else if (tx) {
    if (isWrite(text)) tx.wrote = true;
  } else if (/\batelier_sequence_events\s*\(/.test(text)) c.sequencerCommits++;
  else if (isWrite(text)) c.autocommitWrites++;
  else c.autocommitReads++;
}

let installed = false;
export function installSqlCounter() {
  if (installed) return;
  installed = true;
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: object, ...args: unknown[]) {
    if (sqlCounter.on) countStatement(this, args[0]);
    return original.apply(this, args);
  };
}

export async function counted<T>(f: () => Promise<T>): Promise<{ value: T; counts: SqlCounts }> {
  sqlCounter.c = zeroCounts();
  sqlCounter.on = true;
  try {
    const value = await f();
    return { value, counts: sqlCounter.c };
  } finally {
    sqlCounter.on = false;
  }
}
