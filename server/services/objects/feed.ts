// Live object changes for open editors: a workspace's object_changes rows after a cursor, then new
// ones as they commit. Positions are gap-free and commit-ordered (store.ts), so "position > cursor"
// read from the database never misses or repeats a change; the database is the only source of
// content. Wake-ups are hints: NOTIFY on `atelier_objects` (sent by the writing transaction, so from
// any process, only on commit), and a safety poll for anything lost (e.g. while reconnecting).
import pg from 'pg';
import type { PrismaClient } from '../../db/client.ts';
import type { Logger } from '../../log.ts';
import { OBJECTS_CHANNEL } from '../../store/objects/store.ts';

export type ObjectChangeRow = {
  position: number;
  workspaceId: string;
  objectId: string;
  version: number;
  kind: 'CREATED' | 'UPDATED' | 'DELETED';
  createdAt: Date;
};

export class ObjectFeed {
  private listener: pg.Client | undefined;
  private stopped = false;
  /** Bumped on every wake-up of a workspace; a waiting stream re-reads when it changes. */
  private readonly ticks = new Map<string, number>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private pollTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly opts: { prisma: PrismaClient; connectionString: string; log: Logger; pollMs: number; pageSize?: number },
  ) {}

  async start(): Promise<void> {
    await this.connect();
    // Safety poll: wake every waiting stream now and then (a lost notification costs latency only).
    this.pollTimer = setInterval(() => {
      for (const w of [...this.waiters.keys()]) this.wake(w);
    }, this.opts.pollMs);
    this.pollTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    for (const w of [...this.waiters.keys()]) this.wake(w);
    const l = this.listener;
    this.listener = undefined;
    await l?.end().catch(() => {});
  }

  wake(workspaceId: string): void {
    this.ticks.set(workspaceId, (this.ticks.get(workspaceId) ?? 0) + 1);
    const ws = this.waiters.get(workspaceId);
    if (!ws) return;
    this.waiters.delete(workspaceId);
    for (const fn of ws) fn();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.opts.connectionString });
    client.on('notification', (msg) => {
      if (msg.channel !== OBJECTS_CHANNEL || !msg.payload) return;
      this.wake(msg.payload.slice(0, msg.payload.lastIndexOf(':')));
    });
    const onLost = (err?: Error) => {
      if (this.listener !== client || this.stopped) return;
      this.listener = undefined;
      this.opts.log.warn('object feed listener lost; reconnecting', { error: err?.message });
      client.end().catch(() => {});
      setTimeout(() => {
        if (this.stopped) return;
        this.connect().then(
          () => {
            for (const w of [...this.waiters.keys()]) this.wake(w);
          },
          () => onLost(),
        );
      }, 500).unref();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    await client.connect();
    await client.query(`LISTEN ${OBJECTS_CHANNEL}`);
    this.listener = client;
  }

  async head(workspaceId: string): Promise<number> {
    const h = await this.opts.prisma.objectFeedHead.findUnique({ where: { workspaceId } });
    return h ? Number(h.position) : 0;
  }

  async read(workspaceId: string, after: number, limit: number): Promise<ObjectChangeRow[]> {
    const rows = await this.opts.prisma.objectChange.findMany({
      where: { workspaceId, position: { gt: BigInt(after) } },
      orderBy: { position: 'asc' },
      take: limit,
    });
    return rows.map((r) => ({ position: Number(r.position), workspaceId: r.workspaceId, objectId: r.objectId, version: r.version, kind: r.kind, createdAt: r.createdAt }));
  }

  private waitFor(workspaceId: string, tick: number, signal: AbortSignal): Promise<void> {
    if ((this.ticks.get(workspaceId) ?? 0) !== tick || signal.aborted || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        this.waiters.get(workspaceId)?.delete(done);
        resolve();
      };
      let set = this.waiters.get(workspaceId);
      if (!set) this.waiters.set(workspaceId, (set = new Set()));
      set.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Changes after `after` (replay), then live ones: in position order, no gap, no duplicate. */
  async *stream(workspaceId: string, after: number, signal: AbortSignal): AsyncGenerator<ObjectChangeRow> {
    let cursor = after;
    const page = this.opts.pageSize ?? 200;
    while (!signal.aborted && !this.stopped) {
      // Note the tick before reading: a wake-up during the read makes the wait return at once.
      const tick = this.ticks.get(workspaceId) ?? 0;
      const rows = await this.read(workspaceId, cursor, page);
      for (const r of rows) {
        if (r.position !== cursor + 1) break; // cannot happen (gap-free prefix); re-read to be safe
        cursor = r.position;
        yield r;
      }
      if (rows.length === page) continue;
      await this.waitFor(workspaceId, tick, signal);
    }
  }
}
