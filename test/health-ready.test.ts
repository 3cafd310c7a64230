// Readiness is the database's: `/health/ready` answers 200 while the app's database answers within a
// second, 503 when it does not (a database that stalls, one that refuses connections), and 200 again
// once it answers. The app reaches its database through a TCP proxy this test controls (to stall it)
// and the database is closed to connections for real (ALTER DATABASE … ALLOW_CONNECTIONS false and
// its backends terminated); `/health/live` keeps answering throughout.
import assert from 'node:assert/strict';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { SERVER_URL } from './helpers/db.ts';
import { waitFor } from './helpers/wait.ts';

/** Forwards TCP to PostgreSQL; `stall()` stops carrying bytes both ways (connections stay open). */
function startProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let stalled = false;
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
      if (stalled) s.pause();
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  return {
    listen: () => new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port))),
    stall: () => {
      stalled = true;
      for (const s of sockets) s.pause();
    },
    resume: () => {
      stalled = false;
      for (const s of sockets) s.resume();
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

const pgServer = new URL(SERVER_URL);
const proxy = startProxy({ host: pgServer.hostname, port: Number(pgServer.port || 5432) });
let t: TestApp;
let dbName: string;
before(async () => {
  const port = await proxy.listen();
  t = await startTestApp('health', {}, {}, {
    connect: (dbUrl) => {
      const u = new URL(dbUrl);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
  });
  dbName = new URL(t.dbUrl).pathname.slice(1);
});
after(async () => {
  proxy.resume();
  await admin(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`).catch(() => {});
  await t.close();
  await proxy.close();
});

async function admin(sql: string, params: unknown[] = []) {
  const c = new pg.Client({ connectionString: SERVER_URL });
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end();
  }
}

async function ready(): Promise<{ status: number; ms: number; body: { ok: boolean; reason?: string } }> {
  const started = Date.now();
  const res = await fetch(`${t.url}/health/ready`, { signal: AbortSignal.timeout(15_000) });
  return { status: res.status, ms: Date.now() - started, body: (await res.json()) as { ok: boolean; reason?: string } };
}

test('/health/ready: 503 after one second when the database stalls, 200 again when it answers', async () => {
  assert.equal((await ready()).status, 200);
  proxy.stall();
  try {
    const r = await ready();
    assert.equal(r.status, 503);
    assert.deepEqual(r.body, { ok: false, reason: 'the database does not answer' });
    assert.ok(r.ms >= 950, `it waited for its one second (${r.ms} ms), then gave up`);
    assert.ok(r.ms < 10_000, `and did not hang with the database (${r.ms} ms)`);
    assert.equal((await fetch(`${t.url}/health/live`)).status, 200, 'the process itself is live');
  } finally {
    proxy.resume();
  }
  await waitFor(async () => (await ready()).status === 200, 'ready again once the database answers', { timeoutMs: 30_000 });
});

test('/health/ready: 503 while the database refuses connections, 200 once it accepts them again', async () => {
  assert.equal((await ready()).status, 200);
  await admin(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS false`);
  try {
    const killed = await admin('SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()) x', [dbName]);
    assert.ok(killed.rows[0].n > 0, 'the app had connections, now terminated');
    const r = await waitFor(async () => {
      const x = await ready();
      return x.status === 503 ? x : null;
    }, '503 while the database refuses connections');
    assert.deepEqual(r.body, { ok: false, reason: 'the database does not answer' });
    // It stays unready while the database refuses (no cached answer).
    assert.equal((await ready()).status, 503);
    assert.equal((await fetch(`${t.url}/health/live`)).status, 200);
  } finally {
    await admin(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`);
  }
  await waitFor(async () => (await ready()).status === 200, 'ready again once the database accepts connections', { timeoutMs: 30_000 });
});
