// Live object changes for open editors: a workspace's object_changes rows by position, on the
// generic ordered feed (feed.ts). Positions are bumped under the workspace's object_feed_heads row
// lock held to commit (store/objects/store.ts), so they are gap-free and in commit order, and the
// writing transaction's unit of work wakes this feed after commit (unit-of-work.ts).
import type { PrismaClient } from '../db/client.ts';
import type { Logger } from '../log.ts';
import { OrderedFeed, type FeedSource } from './feed.ts';
import type { FeedListener } from './listener.ts';
import { OBJECTS_CHANNEL } from './notifier.ts';

export type ObjectChangeRow = {
  position: number;
  workspaceId: string;
  objectId: string;
  version: number;
  kind: 'CREATED' | 'UPDATED' | 'DELETED';
  createdAt: Date;
};

function objectChangeSource(prisma: PrismaClient): FeedSource<ObjectChangeRow> {
  return {
    name: 'objects',
    heads: async (keys) => {
      const rows = await prisma.objectFeedHead.findMany({ where: { workspaceId: { in: [...keys] } } });
      return new Map(rows.map((r) => [r.workspaceId, Number(r.position)]));
    },
    read: async (workspaceId, after, limit) => {
      const rows = await prisma.objectChange.findMany({
        where: { workspaceId, position: { gt: BigInt(after) } },
        orderBy: { position: 'asc' },
        take: limit,
      });
      return rows.map((r) => ({ position: Number(r.position), workspaceId: r.workspaceId, objectId: r.objectId, version: r.version, kind: r.kind, createdAt: r.createdAt }));
    },
    position: (c) => c.position,
  };
}

export class ObjectChangeFeed {
  private readonly feed: OrderedFeed<ObjectChangeRow>;

  constructor(opts: { prisma: PrismaClient; log: Logger; listener: FeedListener; ringSize?: number; pageSize?: number }) {
    this.feed = new OrderedFeed(objectChangeSource(opts.prisma), { log: opts.log, ringSize: opts.ringSize ?? 512, pageSize: opts.pageSize ?? 200 });
    opts.listener.register(OBJECTS_CHANNEL, this.feed);
  }

  get stats() {
    return this.feed.stats;
  }

  stop(): void {
    this.feed.stop();
  }

  /** The workspace's last committed change: a stream opened "now" starts after it. */
  head(workspaceId: string): Promise<number> {
    return this.feed.head(workspaceId);
  }

  /** Changes after `after` (replay), then live ones: in position order, no gap, no duplicate. */
  stream(workspaceId: string, after: number, signal: AbortSignal): AsyncGenerator<ObjectChangeRow> {
    return this.feed.stream(workspaceId, after, signal);
  }
}
