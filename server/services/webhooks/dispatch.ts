// The webhook dispatcher: turns a workspace's sequenced event log into deliveries, after commit and
// never inside the transaction that made an event (so a slow or dead receiver cannot hold a writer).
// It runs in every worker process and follows the event log's wake-ups like a live feed does: the
// process's LISTEN connection hands it each "workspace W reached position P" (observe() in
// channel/listener.ts), its own commits directly, a re-read after a reconnect, and the safety poll.
//
// A pass over workspace W, in one transaction per page: lock W's enabled endpoints that are behind
// the head (SKIP LOCKED: one dispatcher per endpoint at a time), read the events after each one's
// cursor, write a delivery for each event its filters select and queue its first attempt, and move
// its cursor past every event read (store/webhooks/dispatch.ts). Killed mid-pass, the transaction
// rolls back and the next pass starts from the committed cursor; a pass replayed over events that
// already have deliveries writes nothing (unique per endpoint and event). Passes of one workspace in
// one process never overlap: a wake-up during a pass makes it look once more when it ends.
import { sequenceEvents } from '../../channel/sequencer.ts';
import type { WakeTarget } from '../../channel/listener.ts';
import { selectedTypes, type EventType, type EventVisibility } from '../../domain/event-catalog.ts';
import { advanceEndpoint, followedWorkspaces, lockBehindEndpoints } from '../../store/webhooks/dispatch.ts';
import type { Deps } from '../deps.ts';
import { enqueueSends } from './queue.ts';

/** Events read per endpoint per transaction. */
export const DISPATCH_PAGE = 200;

/**
 * One page for every endpoint of the workspace that is behind; returns how many endpoints it moved
 * (0: none of the endpoints it could lock is behind).
 */
export async function dispatchPage(deps: Pick<Deps, 'prisma' | 'scheduler'>, workspaceId: string, limit = DISPATCH_PAGE): Promise<number> {
  return deps.prisma.$transaction(
    async (tx) => {
      const endpoints = await lockBehindEndpoints(tx, workspaceId);
      for (const e of endpoints) {
        const types = selectedTypes({ types: e.eventTypes as EventType[], visibility: e.visibilities as EventVisibility[] });
        const r = await advanceEndpoint(tx, { workspaceId, endpointId: e.id, after: e.cursor, limit, types });
        await enqueueSends(tx, deps.scheduler, r.created.map((deliveryId) => ({ job: { workspaceId, deliveryId, series: 1, attempt: 1 } })));
      }
      return endpoints.length;
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
}

export class WebhookDispatcher implements WakeTarget {
  /** Workspaces with an enabled endpoint, with a position below which wake-ups need no pass (from the poll). */
  private followed = new Map<string, number>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private stopped = false;
  /** Counters for tests. */
  readonly stats = { passes: 0, pages: 0, failures: 0 };

  constructor(private readonly deps: Pick<Deps, 'prisma' | 'scheduler' | 'log'>) {}

  wake(workspaceId: string, position: number): void {
    const seen = this.followed.get(workspaceId);
    if (seen !== undefined && position > seen) this.schedule(workspaceId);
  }

  wakeAll(): void {
    for (const ws of this.followed.keys()) this.schedule(ws);
  }

  /**
   * The safety poll (and how new endpoints are found): the workspaces with enabled endpoints, each
   * sequenced (an event whose writer died before sequencing it is not missed) and passed over when an
   * endpoint is behind. The passes run on their own; the poll does not wait for them.
   */
  async poll(): Promise<void> {
    if (this.stopped) return;
    const followed = await followedWorkspaces(this.deps.prisma);
    const heads = await sequenceEvents(this.deps.prisma, [...followed.keys()]);
    this.followed = followed;
    for (const [ws, cursor] of followed) if ((heads.get(ws) ?? 0) > cursor) this.schedule(ws);
  }

  /** Resolves when no pass is running (tests). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running.values()]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  private schedule(workspaceId: string): void {
    if (this.stopped) return;
    if (this.running.has(workspaceId)) {
      this.again.add(workspaceId);
      return;
    }
    const pass = this.pass(workspaceId)
      .catch((e) => {
        this.stats.failures++;
        // Not lost: the next wake-up or the safety poll passes again from the committed cursors.
        this.deps.log.warn('webhook dispatch failed; the next poll retries', { workspaceId, error: (e as Error).message });
      })
      .finally(() => {
        this.running.delete(workspaceId);
        if (this.again.delete(workspaceId)) this.schedule(workspaceId);
      });
    this.running.set(workspaceId, pass);
  }

  private async pass(workspaceId: string): Promise<void> {
    this.stats.passes++;
    // Until no endpoint it can lock is behind: an event sequenced during a page is found by the next.
    while (!this.stopped) {
      const moved = await dispatchPage(this.deps, workspaceId);
      this.stats.pages++;
      if (moved === 0) break;
    }
  }
}
