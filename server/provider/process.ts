// The provider service as a child of an Atelier process (`npm start`, `npm run worker`) when no
// ATELIER_PROVIDER_URL is configured. One data directory has one provider service: a process that
// finds one already running there (another Atelier process on the same data directory started it)
// uses it; otherwise it starts its own and restarts it, on the same port, if it dies.
//
// The child never outlives its parent: it watches the IPC channel and exits when the channel closes,
// which also happens when the parent is killed with SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { ensureProviderSecret } from '../generation/provider-protocol.ts';
import { serverEntryArgs } from '../build.mjs';
import { ROOT } from '../paths.ts';

export type ProviderService = {
  url: string;
  secret: string;
  /** Whether this process started it (and stops it). */
  owned: boolean;
  stop(): Promise<void>;
};

/** The exit code of a provider whose data directory is in use by another provider process. */
export const EXIT_DIR_IN_USE = 75;

const root = `${ROOT}/`;

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** The provider already serving this data directory, if one answers. */
async function discover(dir: string): Promise<string | null> {
  try {
    const { url } = JSON.parse(readFileSync(join(dir, 'endpoint.json'), 'utf8')) as { url: string };
    return (await healthy(url)) ? url : null;
  } catch {
    return null;
  }
}

type Started = { kind: 'ready'; url: string; port: number; child: ChildProcess } | { kind: 'in-use' } | { kind: 'failed'; error: string };

function spawnProvider(config: Config, secret: string, port: number): Promise<Started> {
  const child = spawn(process.execPath, serverEntryArgs(ROOT, 'provider'), {
    cwd: root,
    env: { ...process.env, ATELIER_DATA_DIR: resolve(config.dataDir), ATELIER_PROVIDER_PORT: String(port), ATELIER_PROVIDER_SECRET: secret },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((done) => {
    const onExit = (code: number | null) => done(code === EXIT_DIR_IN_USE ? { kind: 'in-use' } : { kind: 'failed', error: `the provider exited (${code ?? 'signal'}) before it was ready` });
    child.once('exit', onExit);
    child.once('error', (e) => done({ kind: 'failed', error: e.message }));
    child.on('message', (m: { type?: string; url?: string; port?: number }) => {
      if (m?.type !== 'ready' || !m.url) return;
      child.off('exit', onExit);
      done({ kind: 'ready', url: m.url, port: m.port!, child });
    });
  });
}

/**
 * Finds or starts the provider service for this data directory. Waits until it answers, so the
 * app's capabilities (priced by the provider) load at once.
 */
export async function startProviderService(config: Config, log: Logger): Promise<ProviderService> {
  const secret = config.provider?.secret ?? ensureProviderSecret(config.dataDir);
  const dir = resolve(config.dataDir, 'provider');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = await discover(dir);
    if (found) {
      log.info('using the provider service running for this data directory', { url: found });
      return follow(config, log, secret, found);
    }
    const s = await spawnProvider(config, secret, config.provider?.port ?? 0);
    if (s.kind === 'ready') return supervise(config, log, secret, s);
    if (s.kind === 'failed') throw new Error(`the provider service did not start: ${s.error}`);
    // Another process holds the directory and has not advertised itself yet: look again.
    if (Date.now() > deadline) throw new Error(`the provider data directory ${dir} stays in use by another process`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Uses a provider another process started; if that one goes away for good (its parent ended), takes
 * it over on the same port, so the URL this process uses stays valid.
 */
function follow(config: Config, log: Logger, secret: string, url: string): ProviderService {
  const port = Number(new URL(url).port);
  let took: ProviderService | undefined;
  let misses = 0;
  let busy = false;
  const timer = setInterval(() => {
    if (busy || took) return;
    busy = true;
    void (async () => {
      if (await healthy(url)) {
        misses = 0;
        return;
      }
      if (++misses < 2) return;
      const s = await spawnProvider(config, secret, port);
      if (s.kind !== 'ready') return; // someone else took it over (or will): keep following
      clearInterval(timer);
      took = supervise(config, log, secret, s);
      log.info('took over the provider service', { url: s.url });
    })().finally(() => {
      busy = false;
    });
  }, 5000);
  timer.unref();
  return {
    url,
    secret,
    owned: false,
    stop: async () => {
      clearInterval(timer);
      await took?.stop();
    },
  };
}

/** Keeps the child running: restarted on the same port (so its URL stays valid) when it dies. */
function supervise(config: Config, log: Logger, secret: string, first: Extract<Started, { kind: 'ready' }>): ProviderService {
  let child: ChildProcess | undefined = first.child;
  let stopping = false;
  const killOnExit = () => child?.kill('SIGKILL');
  process.on('exit', killOnExit);
  const watch = (c: ChildProcess) => {
    c.once('exit', (code, signal) => {
      if (child !== c) return;
      child = undefined;
      if (stopping) return;
      log.warn('the provider service died; restarting it', { code, signal });
      void restart(1);
    });
  };
  const restart = async (attempt: number): Promise<void> => {
    await new Promise((r) => setTimeout(r, Math.min(250 * attempt, 5000)));
    if (stopping) return;
    const s = await spawnProvider(config, secret, first.port);
    if (stopping) {
      if (s.kind === 'ready') s.child.kill('SIGTERM');
      return;
    }
    if (s.kind === 'ready') {
      child = s.child;
      watch(s.child);
      log.info('provider service restarted', { url: s.url });
      return;
    }
    log.warn('the provider service did not restart; trying again', { attempt, reason: s.kind === 'failed' ? s.error : 'data directory in use' });
    return restart(attempt + 1);
  };
  watch(first.child);
  return {
    url: first.url,
    secret,
    owned: true,
    stop: async () => {
      stopping = true;
      process.off('exit', killOnExit);
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise<void>((r) => c.once('exit', () => r()));
      c.kill('SIGTERM');
      const timer = setTimeout(() => c.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
