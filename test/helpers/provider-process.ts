// Runs the provider service (`npm run provider`, server/provider/main.ts) as a separate OS process,
// and a minimal callback endpoint for a provider client used without an Atelier server.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serverEntryArgs } from '../../server/build.mjs';
import type { CallbackReceiver } from '../../server/generation/types.ts';

export type ProviderProcess = { url: string; port: number; proc: ChildProcess; output: () => string; stop(signal?: NodeJS.Signals): Promise<void> };

const root = new URL('../../', import.meta.url).pathname;

export async function startProviderProcess(opts: { dataDir: string; secret: string; port?: number; env?: Record<string, string> }, timeoutMs = 60_000): Promise<ProviderProcess> {
  const proc = spawn(process.execPath, serverEntryArgs(root.replace(/\/$/, ''), 'provider'), {
    cwd: root,
    env: {
      ...process.env,
      ATELIER_LOG_LEVEL: 'warn',
      ATELIER_DATA_DIR: opts.dataDir,
      ATELIER_PROVIDER_PORT: String(opts.port ?? 0),
      ATELIER_PROVIDER_SECRET: opts.secret,
      ...opts.env,
    },
    // An IPC channel makes it follow this process: if the test process dies, the provider does too.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`provider did not start in time:\n${out}`)), timeoutMs);
    proc.stdout!.on('data', () => {
      const m = /Atelier provider running: (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`provider exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    port: Number(new URL(url).port),
    proc,
    output: () => out,
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill(signal);
      }),
  };
}

/** An HTTP endpoint that hands every POST to `receiver` (what server/http/hooks.ts does in the app). */
export async function startCallbackEndpoint(receiver: CallbackReceiver): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void receiver.receiveCallback(Buffer.concat(chunks).toString('utf8'), req.headers).then(
        (r) => res.writeHead(r.status).end(),
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
