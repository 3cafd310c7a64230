// Prisma 7 with the pg driver adapter. One client per process; pass it in, never import a global.
// Prisma and the hot paths that speak SQL directly (the event append) share one pg pool, so a
// process holds one set of connections whichever way a statement goes.
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/client.ts';

export type { PrismaClient };
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];
export type Db = PrismaClient | Tx;

const pools = new WeakMap<object, pg.Pool>();

export function createPrisma(connectionString: string, opts: { max?: number } = {}): PrismaClient {
  const pool = new pg.Pool({ connectionString, max: opts.max ?? 10 });
  // An idle connection dropped by the server is replaced on the next checkout; without a listener
  // its error event would end the process.
  pool.on('error', () => {});
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  const client = new PrismaClient({ adapter });
  pools.set(client, pool);
  return client;
}

/**
 * The pg pool under a client made by createPrisma, for single statements on the hot path (one
 * round trip, no query-engine overhead); null for a transaction client, whose statements must go
 * through its own connection.
 */
function poolOf(db: Db): pg.Pool | null {
  return pools.get(db) ?? null;
}

/**
 * One raw statement: straight to the pool for the plain client (its own commit), through the
 * transaction's connection for a transaction client.
 */
export async function rawQuery<T>(db: Db, sql: string, params: unknown[]): Promise<T[]> {
  const pool = poolOf(db);
  return pool ? (await pool.query(sql, params)).rows as T[] : db.$queryRawUnsafe<T[]>(sql, ...params);
}
