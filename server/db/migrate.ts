// Applies prisma/migrations/*/migration.sql in name order and records them in Prisma's standard
// `_prisma_migrations` table (same checksum: SHA-256 of the file), so `prisma migrate deploy` and
// this applier agree wherever either runs. Each migration runs in its own transaction; an advisory
// lock makes concurrent starters (several API processes, parallel test files) wait for each other.
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { fromRoot } from '../paths.ts';

const MIGRATIONS_DIR = `${fromRoot('prisma', 'migrations')}/`;
const LOCK_KEY = 72_707_369; // arbitrary, stable: "atelier migrations"

export type MigrationResult = { applied: string[]; alreadyApplied: number };

export function listMigrations(dir = MIGRATIONS_DIR): { name: string; sql: string; checksum: string }[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export async function migrate(connectionString: string): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations"
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Map(done.rows.map((r) => [r.migration_name, r.checksum]));
    const result: MigrationResult = { applied: [], alreadyApplied: 0 };
    for (const m of listMigrations()) {
      const known = applied.get(m.name);
      if (known !== undefined) {
        if (known !== m.checksum) {
          throw new Error(`Migration ${m.name} was modified after it was applied (checksum mismatch)`);
        }
        result.alreadyApplied++;
        continue;
      }
      const id = randomUUID();
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
           VALUES ($1, $2, now(), $3, 1)`,
          [id, m.checksum, m.name],
        );
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${m.name} failed: ${(e as Error).message}`);
      }
      result.applied.push(m.name);
    }
    return result;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {});
    await client.end();
  }
}

/** Creates a database if it does not exist (connecting to the server's `postgres` database). */
export async function ensureDatabase(connectionString: string): Promise<void> {
  const url = new URL(connectionString);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`Unsupported database name: ${name}`);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    const r = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (r.rowCount === 0) {
      await admin.query(`CREATE DATABASE "${name}"`).catch((e: { code?: string }) => {
        if (e.code !== '42P04') throw e; // created concurrently
      });
    }
  } finally {
    await admin.end();
  }
}

/** Whether a PostgreSQL server answers at `url` (within a short timeout). */
export async function reachable(url: string, timeoutMs = 1500): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}
