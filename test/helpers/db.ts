// A fresh, migrated database per test file, on the real PostgreSQL server (TEST_DATABASE_URL or
// 127.0.0.1:5432 as user postgres). Dropped at the end.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../server/db/migrate.ts';

export const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

function withDb(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

export async function createTestDatabase(label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `atelier_t_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase().slice(0, 20)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = withDb(SERVER_URL, name);
  await migrate(url);
  return {
    url,
    drop: async () => {
      const a = new pg.Client({ connectionString: SERVER_URL });
      await a.connect();
      try {
        await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await a.end();
      }
    },
  };
}
