// The event log's live streams: a workspace's events by position, and one task's events by seq,
// both on the generic ordered feed (feed.ts) keyed by workspace. A task stream follows its
// workspace's topic and keeps its own task's events, so every subscriber of a workspace, whatever
// it follows, shares one read per wake-up.
import { rawQuery, type PrismaClient } from '../db/client.ts';
import type { Logger } from '../log.ts';
import { OrderedFeed, type FeedSource } from './feed.ts';
import type { FeedListener } from './listener.ts';
import { EVENTS_CHANNEL } from './notifier.ts';
import { sequenceEvents } from './sequencer.ts';
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
  actorVersion: true,
  actorRun: true,
  workerId: true,
  occurredAt: true,
  redaction: true,
  payload: true,
  payloadHash: true,
  payloadSize: true,
  payloadSchema: true,
} as const;

type DbEvent = Omit<EventRow, 'position'> & { position: bigint | null };
/**
 * A database event row as the channel's EventRow (positions fit a JS number). Only for sequenced
 * rows: every read that hands rows on reads `position IS NOT NULL` or sequences first.
 */
export const toRow = (e: DbEvent): EventRow => {
  if (e.position === null) throw new Error(`event ${e.id} has no position yet`);
  return { ...e, position: Number(e.position) };
};

type SqlEvent = {
  id: string; task_id: string; workspace_id: string; seq: number; position: string; type: string; actor_kind: EventRow['actorKind'];
  actor_id: string | null; actor_version: number | null; actor_run: string | null; worker_id: string | null; occurred_at: Date; redaction: EventRow['redaction']; payload: unknown;
  payload_hash: string | null; payload_size: number; payload_schema: string;
};

// Every live subscriber's wake-up ends in this read, so it goes to the pool as one plain statement
// (no query-engine work per row); (workspace_id, position) is the table's unique index. The order
// names the column, not the text alias of the same name (that would sort "10" before "2").
const READ_WORKSPACE_SQL = `
SELECT id::text, task_id::text, workspace_id::text, seq, position::text, type, actor_kind, actor_id, actor_version, actor_run, worker_id, occurred_at,
       redaction, payload, payload_hash, payload_size, payload_schema
  FROM task_events WHERE workspace_id = $1::uuid AND position > $2::bigint ORDER BY task_events.position LIMIT $3::int`;

// The same read keeping only some types (a filtered page): what it returns is still in position
// order with nothing selected left out, so a page's last cursor resumes the filtered read exactly.
const READ_WORKSPACE_TYPES_SQL = `
SELECT id::text, task_id::text, workspace_id::text, seq, position::text, type, actor_kind, actor_id, actor_version, actor_run, worker_id, occurred_at,
       redaction, payload, payload_hash, payload_size, payload_schema
  FROM task_events WHERE workspace_id = $1::uuid AND position > $2::bigint AND type = ANY($4::text[])
 ORDER BY task_events.position LIMIT $3::int`;

/** Sequenced events of the workspace after `after`, in position order (only `types`, when given). */
export async function readWorkspaceEvents(
  prisma: PrismaClient,
  workspaceId: string,
  after: number,
  limit: number,
  types: readonly string[] | null = null,
): Promise<EventRow[]> {
  const rows = types
    ? await rawQuery<SqlEvent>(prisma, READ_WORKSPACE_TYPES_SQL, [workspaceId, after, limit, types])
    : await rawQuery<SqlEvent>(prisma, READ_WORKSPACE_SQL, [workspaceId, after, limit]);
  return rows.map((r) => ({
    id: BigInt(r.id), taskId: r.task_id, workspaceId: r.workspace_id, seq: r.seq, position: Number(r.position), type: r.type,
    actorKind: r.actor_kind, actorId: r.actor_id, actorVersion: r.actor_version, actorRun: r.actor_run, workerId: r.worker_id, occurredAt: r.occurred_at, redaction: r.redaction,
    payload: r.payload, payloadHash: r.payload_hash, payloadSize: r.payload_size, payloadSchema: r.payload_schema,
  }));
}

/**
 * task_events by workspace position; the head is workspaces.event_position. Reading a head
 * sequences the workspace first (sequencer.ts), so a subscription that opens, or a safety poll,
 * sees every committed event even when the process that wrote it died before sequencing.
 */
function eventSource(prisma: PrismaClient): FeedSource<EventRow> {
  return {
    name: 'events',
    heads: (keys) => sequenceEvents(prisma, keys),
    read: (workspaceId, after, limit) => readWorkspaceEvents(prisma, workspaceId, after, limit),
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

  private async readTask(taskId: string, workspaceId: string, afterSeq: number): Promise<EventRow[]> {
    this.feed.stats.replayReads++;
    const rows = await this.opts.prisma.taskEvent.findMany({
      // Sequenced events only: the rest are found in the ring once sequenced. A task's events are
      // sequenced in seq order, so this is always a prefix of its log (sequencer.ts). The
      // workspace confines the read to the task's partition.
      where: { workspaceId, taskId, seq: { gt: afterSeq }, NOT: { position: null } },
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
        const rows = await this.readTask(taskId, workspaceId, cursor);
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
