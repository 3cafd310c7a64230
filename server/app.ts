// Composition root: builds the dependencies for one database and starts/stops them in order.
// Used by main.ts, the CLI and the tests.
import { EventHub } from './channel/hub.ts';
import { EventNotifier } from './channel/notifier.ts';
import type { Config } from './config.ts';
import { createPrisma } from './db/client.ts';
import type { Deps } from './deps.ts';
import { createGraphQLServer, type GraphQLServer } from './graphql/yoga.ts';
import { startHttpServer, type RunningServer } from './http/server.ts';
import { createLogger, type Logger } from './log.ts';

export type App = {
  deps: Deps;
  yoga: GraphQLServer;
  /** Starts listening (port 0 picks a free port). */
  listen(opts?: { port?: number; host?: string }): Promise<RunningServer>;
  close(): Promise<void>;
};

export async function createApp(config: Config, connectionString: string, opts: { log?: Logger } = {}): Promise<App> {
  const log = opts.log ?? createLogger(config.logLevel);
  const prisma = createPrisma(connectionString);
  const notifier = new EventNotifier(prisma, log);
  const hub = new EventHub({ prisma, connectionString, log, pollMs: config.eventPollMs });
  notifier.onLocal((w, p) => hub.wake(w, p));
  await hub.start();
  const deps: Deps = { config, prisma, notifier, hub, log };
  const yoga = createGraphQLServer(deps);
  const servers: RunningServer[] = [];
  return {
    deps,
    yoga,
    listen: async (o = {}) => {
      const s = await startHttpServer(deps, yoga, { port: o.port ?? config.port, host: o.host ?? config.host });
      servers.push(s);
      return s;
    },
    close: async () => {
      for (const s of servers.splice(0)) await s.close();
      await hub.stop();
      await notifier.drain();
      await prisma.$disconnect();
    },
  };
}
