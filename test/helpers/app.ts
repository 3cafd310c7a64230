// An in-process Atelier on a fresh database, listening on port 0, with two workspaces and tokens
// of every kind to test isolation and scopes.
import { createApp, type App, type AppOptions } from '../../server/app.ts';
import type { RunningServer } from '../../server/http/server.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { createLogger } from '../../server/log.ts';
import { createToken } from '../../server/auth/create-token.ts';
import { initWorkspace } from '../../server/services/workspaces/init-workspace.ts';
import { createTestDatabase } from './db.ts';

export type Seeded = {
  workspaceId: string;
  ownerId: string;
  ownerToken: string;
  readToken: string;
  viewerId: string;
  viewerToken: string;
};

export type TestApp = {
  app: App;
  server: RunningServer;
  url: string;
  dbUrl: string;
  a: Seeded;
  b: Seeded;
  close(): Promise<void>;
};

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ ATELIER_LOG_LEVEL: process.env.ATELIER_LOG_LEVEL ?? 'silent' }),
    port: 0,
    eventPollMs: 1000,
    // Under a loaded CI machine a 300 ms memory budget would add MEMORY_UNAVAILABLE events to runs
    // whose exact event sequence a test checks; the degradation itself is tested on its own.
    memory: { timeoutMs: 10_000 },
    ...overrides,
  };
}

export async function seedWorkspace(app: App, name: string): Promise<Seeded> {
  const prisma = app.deps.prisma;
  const slug = name.toLowerCase();
  const init = await initWorkspace(prisma, { workspaceName: name, ownerEmail: `owner-${slug}@example.test`, ownerName: `Owner ${name}` });
  const read = await createToken(prisma, { workspaceId: init.workspace.id, userId: init.user.id, name: 'read', scopes: ['READ'] });
  const viewer = await prisma.user.create({ data: { email: `viewer-${slug}@example.test`, name: `Viewer ${name}` } });
  await prisma.membership.create({ data: { workspaceId: init.workspace.id, userId: viewer.id, role: 'VIEWER' } });
  const vt = await createToken(prisma, { workspaceId: init.workspace.id, userId: viewer.id, name: 'viewer', scopes: ['READ'] });
  return {
    workspaceId: init.workspace.id,
    ownerId: init.user.id,
    ownerToken: init.token,
    readToken: read.token,
    viewerId: viewer.id,
    viewerToken: vt.token,
  };
}

export async function startTestApp(label: string, overrides: Partial<Config> = {}, appOpts: AppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase(label);
  const config = testConfig(overrides);
  const app = await createApp(config, db.url, { log: createLogger(config.logLevel), ...appOpts });
  const server = await app.listen({ port: 0, host: '127.0.0.1' });
  const a = await seedWorkspace(app, 'Alpha');
  const b = await seedWorkspace(app, 'Beta');
  return {
    app,
    server,
    url: server.url,
    dbUrl: db.url,
    a,
    b,
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}
