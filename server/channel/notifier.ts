// Wakes event listeners after commit. NOTIFY inside every appending transaction would serialise all
// commits on PostgreSQL's global notify lock (../shared/STACK.md), so instead each process coalesces
// the workspaces it appended to and sends one pg_notify per flush, outside any transaction.
// A notification is only a hint ("workspace W has reached position P"); content is always read from
// the database. If a process dies between commit and notify, hubs catch up on their safety poll.
import type { PrismaClient } from '../db/client.ts';
import type { Logger } from '../log.ts';

export const EVENTS_CHANNEL = 'atelier_events';
const MAX_PAYLOAD = 7900; // PostgreSQL's NOTIFY payload limit is 8000 bytes

export type LocalWake = (workspaceId: string, position: number) => void;

export class EventNotifier {
  private pending = new Map<string, number>();
  private scheduled = false;
  private flushing: Promise<void> = Promise.resolve();
  private readonly localListeners = new Set<LocalWake>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly log: Logger,
  ) {}

  /** In-process listeners (this process's hub) are woken directly, without a round trip. */
  onLocal(fn: LocalWake): () => void {
    this.localListeners.add(fn);
    return () => this.localListeners.delete(fn);
  }

  /** Call after the transaction that appended up to `position` in `workspaceId` has committed. */
  committed(workspaceId: string, position: number): void {
    for (const fn of this.localListeners) fn(workspaceId, position);
    const prev = this.pending.get(workspaceId);
    if (prev === undefined || position > prev) this.pending.set(workspaceId, position);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flushing = this.flushing.then(() => this.flush());
      });
    }
  }

  /** Resolves when everything handed to `committed` so far has been sent. */
  async drain(): Promise<void> {
    while (this.scheduled || this.pending.size > 0) {
      await new Promise((r) => setImmediate(r));
      await this.flushing;
    }
    await this.flushing;
  }

  private async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const entries = [...this.pending];
    this.pending.clear();
    const chunks: string[] = [];
    let cur = '';
    for (const [w, p] of entries) {
      const item = `${w}:${p}`;
      if (cur.length + item.length + 1 > MAX_PAYLOAD) {
        chunks.push(cur);
        cur = '';
      }
      cur = cur ? `${cur},${item}` : item;
    }
    if (cur) chunks.push(cur);
    for (const c of chunks) {
      try {
        await this.prisma.$executeRawUnsafe(`SELECT pg_notify('${EVENTS_CHANNEL}', $1)`, c);
      } catch (e) {
        // Not fatal: listeners' safety poll will pick the events up.
        this.log.warn('event notify failed', { error: (e as Error).message });
      }
    }
  }
}

export function parseNotification(payload: string | undefined): [string, number][] {
  if (!payload) return [];
  const out: [string, number][] = [];
  for (const item of payload.split(',')) {
    const i = item.lastIndexOf(':');
    if (i <= 0) continue;
    const pos = Number(item.slice(i + 1));
    if (Number.isSafeInteger(pos)) out.push([item.slice(0, i), pos]);
  }
  return out;
}
