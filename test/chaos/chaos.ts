// The chaos schedule: at seeded intervals (counted from the moment every process is up again), SIGKILL a worker (most often), an API process or the
// provider service, and start it again — a worker at once or after a pause, an API on its port, the
// provider on its port and data directory. For a worker kill it records which turns the worker held:
// the RUNNING turns leased to it just before the kill, and (once it is gone and can write nothing)
// those still leased to it — the ones it really held when it died.
import type pg from 'pg';
import type { Cluster, Role, Slot } from './cluster.ts';
import { pause, reached, waitFor } from '../helpers/wait.ts';
import type { Rng } from './rng.ts';

export type HeldTurn = { turnId: string; taskId: string; number: number; generation: number; leaseExpiresAt: Date };
export type Kill = {
  n: number;
  role: Role;
  slot: string;
  at: number;
  /** ms the slot stayed down before its restart began. */
  pauseMs: number;
  /** When the replacement was ready (null: it never came up). */
  upAt: number | null;
  workerId: string | null;
  heldBefore: HeldTurn[];
  held: HeldTurn[];
};

export type ChaosOptions = { gapMs: [number, number]; weights: Record<Role, number>; log: (s: string) => void };

const HELD_SQL = `SELECT id AS "turnId", task_id AS "taskId", number, generation, lease_expires_at AS "leaseExpiresAt" FROM turns WHERE status = 'RUNNING' AND lease_owner = $1`;

export class Chaos {
  readonly kills: Kill[] = [];
  private stopped = false;
  private loop: Promise<void> | null = null;
  private readonly restarts = new Set<Promise<void>>();
  private readonly busy = new Set<Slot>();

  constructor(
    private readonly cluster: Cluster,
    private readonly db: pg.Pool,
    private readonly rng: Rng,
    private readonly o: ChaosOptions,
  ) {}

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        // One fault at a time: the next kill waits until every process is back (a start takes seconds
        // of CPU on a small machine; two at once would measure the machine, not the recovery).
        // No bound of its own: stop() ends the wait.
        await waitFor(() => this.stopped || (this.busy.size === 0 && this.cluster.slots.every((x) => x.up)), 'every process to be back', { timeoutMs: Infinity, intervalMs: 100 });
        // The schedule's gap between faults (cut short by stop()).
        await reached(() => this.stopped, { timeoutMs: this.rng.int(...this.o.gapMs), intervalMs: 50 });
        if (this.stopped) break;
        await this.strike().catch((e) => this.o.log(`chaos: ${(e as Error).message}`));
      }
    })();
  }

  /** The first strikes cover every kind once (a short run still meets each), then the weights decide. */
  private deck: Role[] = [];

  private choose(): Role {
    if (this.kills.length === 0 && this.deck.length === 0) {
      this.deck = ['worker', 'api', 'worker', 'provider'];
      for (let i = this.deck.length - 1; i > 0; i--) {
        const j = this.rng.int(0, i);
        [this.deck[i], this.deck[j]] = [this.deck[j]!, this.deck[i]!];
      }
    }
    const next = this.deck.shift();
    if (next) return next;
    const w = this.o.weights;
    const total = w.worker + w.api + w.provider;
    const x = this.rng() * total;
    return x < w.worker ? 'worker' : x < w.worker + w.api ? 'api' : 'provider';
  }

  private async strike(): Promise<void> {
    const role = this.choose();
    const up = (r: Role) => this.cluster.slots.filter((s) => s.role === r && s.up && !this.busy.has(s));
    let victim: Slot | undefined;
    if (role === 'worker') {
      // One worker stays alive at least (the schedule kills, it does not switch the system off).
      // A worker that holds turns is preferred (that is what a recovery is measured on).
      // Turns of the offline model are short, so the schedule watches for up to 2 s for a moment
      // when some worker is inside one; otherwise (and now and then anyway) any worker dies.
      const workers = up('worker');
      if (workers.length >= 2) {
        let busy: Slot[] = [];
        if (this.rng.chance(0.85)) {
          await reached(
            async () => {
              const owners = new Set((await this.db.query<{ o: string }>(`SELECT DISTINCT lease_owner AS o FROM turns WHERE status = 'RUNNING'`)).rows.map((r) => r.o));
              busy = workers.filter((w) => w.workerId && owners.has(w.workerId));
              return busy.length > 0;
            },
            { timeoutMs: 2000, intervalMs: 50 },
          );
        }
        victim = this.rng.pick(busy.length ? busy : workers);
      }
    } else if (role === 'api') {
      if (up('api').length >= 2) victim = this.rng.pick(up('api'));
    } else if (up('provider').length === 1) victim = up('provider')[0];
    if (!victim) return;
    const pauseMs = role === 'worker' ? (this.rng.chance(0.5) ? 0 : this.rng.int(1000, 5000)) : role === 'api' ? this.rng.int(0, 2000) : this.rng.int(0, 3000);
    const kill: Kill = { n: this.kills.length + 1, role, slot: victim.name, at: 0, pauseMs, upAt: null, workerId: victim.workerId, heldBefore: [], held: [] };
    this.busy.add(victim);
    if (role === 'worker' && victim.workerId) kill.heldBefore = (await this.db.query<HeldTurn>(HELD_SQL, [victim.workerId])).rows;
    kill.at = Date.now();
    await this.cluster.kill(victim);
    if (role === 'worker' && victim.workerId) kill.held = (await this.db.query<HeldTurn>(HELD_SQL, [victim.workerId])).rows;
    this.kills.push(kill);
    this.o.log(`kill ${kill.n}: ${victim.name}${role === 'worker' ? ` holding ${kill.held.length} turn(s)` : ''}; restart in ${pauseMs} ms`);
    const restart = (async () => {
      // The fault itself: the process stays down this long before it is started again.
      await pause(pauseMs);
      await this.cluster.launch(victim);
      if (victim.up) kill.upAt = Date.now();
    })()
      .catch((e) => this.o.log(`restart of ${victim.name} failed: ${(e as Error).message.slice(0, 500)}`))
      .finally(() => {
        this.busy.delete(victim);
        this.restarts.delete(restart);
      });
    this.restarts.add(restart);
  }

  /** Stops the schedule and waits for every killed process to be back. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    await Promise.allSettled([...this.restarts]);
    // A slot whose restart failed is started once more: the system settles with all its processes.
    for (const s of this.cluster.slots) if (!s.up) await this.cluster.launch(s).catch((e) => this.o.log(`final start of ${s.name}: ${(e as Error).message}`));
  }
}
