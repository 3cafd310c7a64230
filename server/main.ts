// `npm start`: the whole product in one process — the API and one worker. Without DATABASE_URL it
// starts an embedded PostgreSQL (data in .data/), migrates, creates a workspace and an owner token
// on first start. `npm run worker` (--worker-only) runs just a worker against the same database.
import { createApp } from './app.ts';
import { installOtlpTracer } from './runtime/telemetry.ts';
import { loadConfig } from './config.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded.ts';
import { ensureDatabase, migrate } from './db/migrate.ts';
import { createWebHandler, type WebHandler } from './http/web.ts';
import { createLogger } from './log.ts';
import { initWorkspace } from './services/workspaces/init-workspace.ts';
import { startProviderService, type ProviderService } from './provider/process.ts';

async function main() {
  // Start-up phases, in ms since the process started (logged once ready: where a slow start goes).
  const phases: Record<string, number> = { loaded: Math.round(process.uptime() * 1000) };
  const mark = (name: string) => void (phases[name] = Math.round(process.uptime() * 1000));
  // Started by a supervisor over IPC (the test helpers do): end with it, even when it is SIGKILLed.
  if (typeof process.send === 'function') process.on('disconnect', () => process.exit(0));
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  let embedded: EmbeddedPostgres | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, log });
    url = embedded.connectionString;
    log.info('embedded PostgreSQL running', { port: config.embeddedPgPort, dataDir: config.dataDir });
  }
  let providerService: ProviderService | undefined;
  // The simulated provider runs as a service of its own (a child process, or ATELIER_PROVIDER_URL),
  // so its jobs outlive this process. It needs nothing of the database: it starts while the
  // database is checked and migrated (a few hundred ms off every start).
  const providerStarting = config.provider?.url
    ? Promise.resolve(undefined)
    : startProviderService(config, log).then((p) => (providerService = p));
  // If anything below fails, stop what we started (the provider, the embedded server) rather than orphan it.
  const failStop = async (e: unknown) => {
    await providerStarting.catch(() => {});
    await providerService?.stop().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw e;
  };
  await ensureDatabase(url).catch(failStop);
  mark('database');
  const m = await migrate(url).catch(failStop);
  mark('migrated');
  if (m.applied.length) log.info('migrations applied', { applied: m.applied });

  // Tracing is off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (then spans go there over OTLP/HTTP).
  const stopTracing = await installOtlpTracer().catch((e) => {
    log.warn('tracing not started', { error: (e as Error).message });
    return null;
  });
  await providerStarting.catch(failStop);
  mark('provider');
  const appConfig = providerService ? { ...config, provider: { ...config.provider!, url: providerService.url, secret: providerService.secret } } : config;
  const app = await createApp(appConfig, url, { log }).catch(failStop);
  mark('app');
  // --worker-only: no API (scale workers separately); --api-only: no worker (scale API processes).
  const workerOnly = process.argv.includes('--worker-only');
  const apiOnly = process.argv.includes('--api-only');
  const worker = apiOnly ? undefined : await app.startWorker();
  mark('worker');
  if (workerOnly && worker) {
    log.info('ready', { startupMs: phases });
    process.stdout.write(`\n  Atelier worker running (${worker.workerId}), model: ${app.deps.runtime.models.info.description}\n\n`);
  } else {
    // Listen first: if the port is taken, nothing is bootstrapped and no token is lost unseen.
    let web: WebHandler | undefined;
    if (config.web !== 'off' && !workerOnly) {
      web = await createWebHandler({ dev: config.web === 'dev' }).catch((e) => {
        log.error('web app unavailable (run npm run web:build); serving the API only', { error: (e as Error).message });
        return undefined;
      });
    }
    const server = await app.listen({ web }).catch(async (e) => {
      await app.close().catch(() => {});
      return failStop(e);
    });
    const firstStart = (await app.deps.prisma.workspace.count()) === 0;
    let token: string | undefined;
    if (firstStart) {
      const init = await initWorkspace(app.deps.prisma, {});
      token = init.token;
    }
    const lines = [
      '',
      `  Atelier is running: ${server.url}${web ? '  (web app: sign in there with your token)' : ''}`,
      `  GraphQL (HTTP, SSE, WebSocket): ${server.url}/graphql`,
      embedded ? `  Database: embedded PostgreSQL, data in ${config.dataDir}/` : '  Database: DATABASE_URL',
      `  Model: ${app.deps.runtime.models.info.description}`,
      `  Generation: simulated provider service at ${appConfig.provider?.url}${providerService?.owned ? ' (child process)' : ''}`,
    ];
    if (token) {
      lines.push(
        '',
        '  First start: created workspace "My Atelier" and its owner (owner@atelier.local).',
        '  Owner token (shown once; keep it):',
        `    ${token}`,
        `  Try: curl -s ${server.url}/graphql -H "Authorization: Bearer ${token}" \\`,
        `         -H 'content-type: application/json' -d '{"query":"{ viewer { user { name } workspaces { id name } } }"}'`,
      );
    } else {
      lines.push('', '  Sign in with your token. New token: npm run atelier -- token');
    }
    process.stdout.write(lines.join('\n') + '\n\n');
    mark('listening');
    log.info('ready', { startupMs: phases });
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    await app.close().catch((e) => log.error('close failed', { error: (e as Error).message }));
    await providerService?.stop().catch(() => {});
    await stopTracing?.().catch(() => {});
    await embedded?.stop().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e) => {
  process.stderr.write(`Atelier failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
