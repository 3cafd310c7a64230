// `npm run provider`: the simulated generation provider as a service of its own (server.ts), with
// its jobs in <ATELIER_DATA_DIR>/provider. `npm start` runs it as a child process (process.ts),
// which passes the port and the shared secret and learns the URL over IPC.
import { resolve } from 'node:path';
import { loadConfig } from '../config.ts';
import { ensureProviderSecret } from '../generation/provider-protocol.ts';
import { createLogger } from '../log.ts';
import { EXIT_DIR_IN_USE } from './process.ts';
import { startProviderServer } from './server.ts';
import { DataDirInUse } from './store.ts';

async function main() {
  const config = loadConfig();
  const log = createLogger(config.logLevel, { service: 'provider' });
  const p = config.provider!;
  const child = typeof process.send === 'function';
  let stopping = false;
  // A child follows its parent: when the IPC channel closes (the parent ended, even by SIGKILL), so does it.
  if (child) process.on('disconnect', () => void stop('parent gone'));
  let running: Awaited<ReturnType<typeof startProviderServer>> | undefined;
  try {
    running = await startProviderServer({
      dir: resolve(config.dataDir, 'provider'),
      host: p.host,
      port: p.port ?? 4100,
      secret: p.secret ?? ensureProviderSecret(config.dataDir),
      simulation: p.simulation,
      log,
    });
  } catch (e) {
    if (e instanceof DataDirInUse) {
      process.stderr.write(`Provider not started: ${e.message}\n`);
      process.exit(EXIT_DIR_IN_USE);
    }
    throw e;
  }
  if (stopping) return void (await running.close());
  if (child) process.send!({ type: 'ready', url: running.url, port: running.port });
  process.stdout.write(`\n  Atelier provider running: ${running.url}  (data in ${resolve(config.dataDir, 'provider')})\n\n`);

  async function stop(reason: string) {
    if (stopping) return;
    stopping = true;
    log.info('provider shutting down', { reason });
    await running?.close().catch((e) => log.error('provider close failed', { error: (e as Error).message }));
    process.exit(0);
  }
  // As a child, Ctrl-C in the terminal reaches this process too: the parent decides when it stops
  // (SIGTERM, or the IPC channel closing), so jobs are not cut off while the parent shuts down.
  process.on('SIGINT', () => void (child ? undefined : stop('SIGINT')));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e) => {
  process.stderr.write(`Provider failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
