// The system under test, as separate OS processes on one database: the provider service, API
// processes (--api-only) on fixed ports and worker processes (--worker-only). Any of them can be
// SIGKILLed and started again: an API on its port, the provider on its port and data directory.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { startProviderProcess, type ProviderProcess } from '../helpers/provider-process.ts';
import { pause } from '../helpers/wait.ts';

export type Role = 'provider' | 'api' | 'worker';
export type Slot = {
  role: Role;
  n: number;
  name: string;
  port: number;
  dataDir: string;
  proc: ServerProcess | ProviderProcess | null;
  /** Worker id (host:pid:suffix) as printed at start. */
  workerId: string | null;
  up: boolean;
  starts: number;
  /** Output of earlier incarnations (tails), then the current one's. */
  history: string[];
};

export type ClusterOptions = {
  databaseUrl: string;
  apis: number;
  workers: number;
  secret: string;
  /** ATELIER_SIM_* settings of the provider service. */
  providerEnv: Record<string, string>;
  /** Runtime settings of every API and worker process. */
  runtimeEnv: Record<string, string>;
  log: (line: string) => void;
};

export const WORKER_READY = /Atelier worker running \(([^)]+)\)/;
const TAIL = 20_000;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export class Cluster {
  readonly slots: Slot[] = [];
  private readonly root = mkdtempSync(join(tmpdir(), 'atelier-chaos-'));
  ownerToken = '';
  stopping = false;
  /** Processes that ended without being killed (a crash): each is a finding. */
  readonly unexpectedExits: string[] = [];

  constructor(private readonly o: ClusterOptions) {}

  get provider(): Slot {
    return this.slots.find((s) => s.role === 'provider')!;
  }
  get apis(): Slot[] {
    return this.slots.filter((s) => s.role === 'api');
  }
  get workers(): Slot[] {
    return this.slots.filter((s) => s.role === 'worker');
  }
  liveApiUrls(): string[] {
    return this.apis.filter((s) => s.up).map((s) => `http://127.0.0.1:${s.port}`);
  }

  private slot(role: Role, n: number, port: number): Slot {
    const dataDir = join(this.root, `${role}-${n}`);
    const s: Slot = { role, n, name: `${role}${n}`, port, dataDir, proc: null, workerId: null, up: false, starts: 0, history: [] };
    this.slots.push(s);
    return s;
  }

  private env(): Record<string, string> {
    const api1 = this.apis[0]!;
    return {
      DATABASE_URL: this.o.databaseUrl,
      ATELIER_PROVIDER_URL: `http://127.0.0.1:${this.provider.port}`,
      ATELIER_PROVIDER_SECRET: this.o.secret,
      // Callbacks go to API 1 only: while it is down they fail, are retried, then left to polling.
      ATELIER_PROVIDER_CALLBACK_URL: `http://127.0.0.1:${api1.port}`,
      ATELIER_WEB: 'off',
      ATELIER_LOG_LEVEL: 'warn',
      ...this.o.runtimeEnv,
    };
  }

  /** Provider, then API 1 alone (it creates the workspace and prints the owner token), then the rest. */
  async start(): Promise<void> {
    this.slot('provider', 1, await freePort());
    for (let i = 1; i <= this.o.apis; i++) this.slot('api', i, await freePort());
    for (let i = 1; i <= this.o.workers; i++) this.slot('worker', i, 0);
    for (const s of this.slots) mkdirSync(s.dataDir, { recursive: true });
    await this.launch(this.provider);
    await this.launch(this.apis[0]!);
    const m = /Owner token[^\n]*\n\s+(atl_\S+)/.exec(this.apis[0]!.proc!.output());
    if (!m) throw new Error(`no owner token in the first API's output:\n${this.apis[0]!.proc!.output()}`);
    this.ownerToken = m[1]!;
    await Promise.all([...this.apis.slice(1), ...this.workers].map((s) => this.launch(s)));
  }

  /** Starts (or starts again) the process of a slot; retried a few times (a port still closing). */
  async launch(s: Slot): Promise<void> {
    let last: unknown;
    for (let attempt = 1; attempt <= 8 && !this.stopping; attempt++) {
      try {
        s.starts++;
        if (s.role === 'provider') {
          s.proc = await startProviderProcess({ dataDir: s.dataDir, secret: this.o.secret, port: s.port, env: this.o.providerEnv }, 180_000);
        } else if (s.role === 'api') {
          s.proc = await startServerProcess({ ...this.env(), PORT: String(s.port), ATELIER_DATA_DIR: s.dataDir }, 180_000, ['--api-only']);
        } else {
          const p = await startServerProcess({ ...this.env(), ATELIER_DATA_DIR: s.dataDir }, 180_000, ['--worker-only'], WORKER_READY);
          s.proc = p;
          s.workerId = p.url; // the ready pattern's group: the worker id
        }
        s.up = true;
        const proc = s.proc;
        proc.proc.once('exit', (code, signal) => {
          if (s.proc === proc) s.up = false;
          if (!this.stopping && signal !== 'SIGKILL') {
            this.unexpectedExits.push(`${s.name} exited by itself (code ${code}, signal ${signal}):\n${proc.output().slice(-3000)}`);
            this.o.log(`${s.name} exited by itself (code ${code}, signal ${signal}); starting it again`);
            void this.launch(s).catch((e) => this.o.log(`${s.name}: ${(e as Error).message.slice(0, 300)}`));
          }
        });
        return;
      } catch (e) {
        last = e;
        this.reapOrphans(s);
        s.history.push(String((e as Error).message).slice(-TAIL));
        this.o.log(`${s.name} did not start (attempt ${attempt}): ${String((e as Error).message).slice(0, 300)}`);
        // A start that failed is tried again after a growing pause (the machine may be saturated).
        await pause(Math.min(3000, 500 * attempt));
      }
    }
    if (!this.stopping) throw new Error(`${s.name} could not be started: ${String((last as Error)?.message).slice(0, 2000)}`);
  }

  /**
   * A start that timed out leaves its process running (it may still hold the provider's data
   * directory or the API's port): our own child started for this slot (its data directory) that
   * the slot does not track is killed, by pid.
   */
  private reapOrphans(s: Slot): void {
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number)) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid !== process.pid || pid === s.proc?.proc.pid) continue;
        if (!readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`ATELIER_DATA_DIR=${s.dataDir}`)) continue;
        this.o.log(`killing process ${pid} of ${s.name}, left over by a start that timed out`);
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile, or not ours to read
      }
    }
  }

  /** SIGKILL; resolves once the process is gone (it can no longer write anything). */
  async kill(s: Slot): Promise<void> {
    const p = s.proc;
    if (!p) return;
    s.up = false;
    await p.stop('SIGKILL');
    s.history.push(p.output().slice(-TAIL));
  }

  outputOf(s: Slot): string {
    return [...s.history, s.proc?.output().slice(-TAIL) ?? ''].join('\n--- restart ---\n');
  }

  async stopAll(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.slots.map((s) => s.proc?.stop('SIGKILL')));
    for (const s of this.slots) s.up = false;
  }

  cleanup(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
