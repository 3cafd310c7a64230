// The event log's live streams: a workspace's events by position, and one task's events by seq,
// both on the generic ordered feed (feed.ts) keyed by workspace. A task stream follows its
// workspace's topic and keeps its own task's events, so every subscriber of a workspace, whatever
// it follows, shares one read per wake-up.
import type { PrismaClient } from '../db/client.ts';
import type { Logger } from '../log.ts';
import { OrderedFeed, type FeedSource } from './feed.ts';
import type { FeedListener } from './listener.ts';
import { EVENTS_CHANNEL } from './notifier.ts';
import type { EventRow } from './types.ts';

const EVENT_SELECT = {
  id: true,
  taskId: true,
  workspaceId: true,
  seq: true,
  position: true,
  type: true,
  actorKind: true,
  actorId: true,
  workerId: true,
  occurredAt: true,
  redaction: true,
  payload: true,
  payloadHash: true,
  payloadSize: true,
  payloadSchema: true,
} as const;

type DbEvent = Omit<EventRow, 'position'> & { position: bigint };
/** A database event row as the channel's EventRow (positions fit a JS number). */
export const toRow = (e: DbEvent): EventRow => ({ ...e, position: Number(e.position) });

/** task_events by workspace position; the head is workspaces.event_position (append.ts). */
function eventSource(prisma: PrismaClient): FeedSource<EventRow> {
  return {
    name: 'events',
    heads: async (keys) => {
      const rows = await prisma.workspace.findMany({ where: { id: { in: [...keys] } }, select: { id: true, eventPosition: true } });
      return new Map(rows.map((r) => [r.id, Number(r.eventPosition)]));
    },
    read: async (workspaceId, after, limit) => {
      const rows = await prisma.taskEvent.findMany({
        where: { workspaceId, position: { gt: BigInt(after) } },
        orderBy: { position: 'asc' },
        take: limit,
        select: EVENT_SELECT,
      });
      return rows.map(toRow);
    },
    position: (e) => e.position,
  };
}

export class EventFeed {
  private readonly feed: OrderedFeed<EventRow>;

  constructor(
    private readonly opts: { prisma: PrismaClient; log: Logger; listener: FeedListener; ringSize?: number; pageSize?: number },
  ) {
    this.feed = new OrderedFeed(eventSource(opts.prisma), { log: opts.log, ringSize: opts.ringSize, pageSize: opts.pageSize });
    opts.listener.register(EVENTS_CHANNEL, this.feed);
  }

  /** Counters for tests and benchmarks (notifications and polls are the shared listener's). */
  get stats() {
    const l = this.opts.listener.stats;
    return { ...this.feed.stats, notifications: l.notifications[EVENTS_CHANNEL] ?? 0, polls: l.polls };
  }

  stop(): void {
    this.feed.stop();
  }

  /** The workspace's last committed position: a stream opened "now" starts after it. */
  readHead(workspaceId: string): Promise<number> {
    return this.feed.head(workspaceId);
  }

  /**
   * Every event of the workspace with position > `afterPosition`, in position order, then live
   * ones, until `signal` aborts. Never skips or repeats a position.
   */
  workspaceStream(workspaceId: string, afterPosition: number, signal: AbortSignal): AsyncGenerator<EventRow> {
    return this.feed.stream(workspaceId, afterPosition, signal);
  }

  private async readTask(taskId: string, afterSeq: number): Promise<EventRow[]> {
    this.feed.stats.replayReads++;
    const rows = await this.opts.prisma.taskEvent.findMany({
      where: { taskId, seq: { gt: afterSeq } },
      orderBy: { seq: 'asc' },
      take: this.feed.pageSize,
      select: EVENT_SELECT,
    });
    return rows.map(toRow);
  }

  /**
   * Every event of the task with seq > `afterSeq`, in seq order, then live ones, until `signal`
   * aborts. Never skips or repeats a seq.
   */
  async *taskStream(taskId: string, workspaceId: string, afterSeq: number, signal: AbortSignal): AsyncGenerator<EventRow> {
    const feed = this.feed;
    const topic = await feed.acquire(workspaceId);
    try {
      let cursor = afterSeq;
      // Position up to which the ring has been scanned for this task. Taken before the replay read,
      // so anything committed after that read is found in the ring (see feed.ts).
      let scanned = topic.head;
      replay: while (!signal.aborted && !feed.isStopped) {
        const rows = await this.readTask(taskId, cursor);
        for (const r of rows) {
          if (signal.aborted) return;
          yield r;
          cursor = r.seq;
        }
        if (rows.length === feed.pageSize) {
          scanned = Math.max(scanned, rows[rows.length - 1]!.position);
          continue;
        }
        while (!signal.aborted && !feed.isStopped) {
          if (!topic.covers(scanned)) {
            scanned = topic.head;
            continue replay;
          }
          let progressed = false;
          while (scanned < topic.head && !signal.aborted) {
            const e = topic.at(scanned + 1);
            if (!e) {
              scanned = topic.head;
              continue replay;
            }
            scanned = e.position;
            progressed = true;
            if (e.taskId !== taskId || e.seq <= cursor) continue;
            if (e.seq !== cursor + 1) {
              feed.log.error('task seq gap in ring; re-reading from database', { taskId, cursor, got: e.seq });
              continue replay;
            }
            yield e;
            cursor = e.seq;
          }
          if (!progressed) await topic.nextAdvance(signal);
        }
      }
    } finally {
      feed.release(topic);
    }
  }
}
