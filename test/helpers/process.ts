// Runs `server/main.ts` as a separate OS process (as `npm start` does) and waits for its URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverEntryArgs } from '../../server/build.mjs';

export type ServerProcess = { url: string; proc: ChildProcess; output: () => string; stop(signal?: NodeJS.Signals): Promise<void> };

const root = new URL('../../', import.meta.url).pathname;

export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
  args: string[] = [],
  ready = /Atelier is running: (http:\/\/\S+)/,
): Promise<ServerProcess> {
  // `entry: start` runs the `npm start` entry itself (server/start.mjs); by default server/main.ts.
  // Otherwise the compiled server when its build is fresh (test/run.ts builds it first), as npm start runs it.
  const entry = env.ATELIER_TEST_ENTRY === 'start' ? ['server/start.mjs'] : serverEntryArgs(root.replace(/\/$/, ''), 'main');
  const proc = spawn(process.execPath, [...entry, ...args], {
    cwd: root,
    // The web app is covered by the browser tests; API/worker processes here leave it out (less load).
    // Each process gets its own data directory (and so its own provider service) unless one is given.
    env: { ...process.env, PORT: '0', ATELIER_LOG_LEVEL: 'warn', ATELIER_WEB: 'off', ATELIER_EGRESS_ALLOW_PRIVATE: '1', ATELIER_DATA_DIR: mkdtempSync(join(tmpdir(), 'atelier-proc-')), ...env },
    // An IPC channel: the server exits when this test process dies, so nothing outlives a killed test.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${out}`)), timeoutMs);
    const check = () => {
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] ?? m[0]);
      }
    };
    proc.stdout!.on('data', check);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
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

/** A TCP port free right now on 127.0.0.1 (for a process that must come back on the same port). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
