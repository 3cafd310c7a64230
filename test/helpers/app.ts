// An in-process Atelier on a fresh database, listening on port 0, with two workspaces and tokens
// of every kind to test isolation and scopes. Every in-process app a test, benchmark or browser test
// needs is built here (startTestApp), so they all run the same wiring; only tests about processes
// (start-up, kills, several servers) start the product as a process (./process.ts).
import { createApp, type App, type AppOptions } from '../../server/app.ts';
import type { RunningServer } from '../../server/http/server.ts';
import type { WebHandler } from '../../server/http/web.ts';
import type { WorkerHandle } from '../../server/runtime/worker.ts';
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
  /** The in-process worker, when `setup.worker` asked for one (app.close stops it). */
  worker?: WorkerHandle;
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
    // Test receivers and MCP servers listen on 127.0.0.1: internal addresses are allowed here; the
    // egress tests turn this off to check the refusal.
    egress: { allowPrivate: true },
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

/** What a test app runs besides the API (both off by default). */
export type TestAppSetup = {
  /** The built web app, served on the API's port (browser tests). */
  web?: WebHandler;
  /** An in-process worker, started once the app listens. */
  worker?: { concurrency: number };
  /** The connection string the app uses, from its database's (e.g. through a proxy a test controls). */
  connect?: (dbUrl: string) => string;
};

export async function startTestApp(label: string, overrides: Partial<Config> = {}, appOpts: AppOptions = {}, setup: TestAppSetup = {}): Promise<TestApp> {
  const db = await createTestDatabase(label);
  const config = testConfig(overrides);
  const app = await createApp(config, setup.connect ? setup.connect(db.url) : db.url, { log: createLogger(config.logLevel), ...appOpts });
  const server = await app.listen({ port: 0, host: '127.0.0.1', ...(setup.web ? { web: setup.web } : {}) });
  const worker = setup.worker ? await app.startWorker(setup.worker) : undefined;
  const a = await seedWorkspace(app, 'Alpha');
  const b = await seedWorkspace(app, 'Beta');
  return {
    app,
    server,
    url: server.url,
    dbUrl: db.url,
    a,
    b,
    ...(worker ? { worker } : {}),
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}
