// A process's live feeds, wired: one listener (one LISTEN connection, one reconnect loop, one
// safety poll) serving the event feed and the object change feed, and this process's own commits
// routed to them straight from the notifier. Built once per process (app.ts; benchmarks that act
// as a separate process build their own).
import type { PrismaClient } from '../db/client.ts';
import type { Logger } from '../log.ts';
import { EventFeed } from './event-feed.ts';
import { FeedListener } from './listener.ts';
import type { EventNotifier } from './notifier.ts';
import { ObjectChangeFeed } from './object-feed.ts';

export type LiveFeeds = {
  listener: FeedListener;
  events: EventFeed;
  objects: ObjectChangeFeed;
  /** Connects the listener (fails when the database cannot be reached) and starts its poll. */
  start(): Promise<void>;
  /** Ends every open stream and closes the connection. */
  stop(): Promise<void>;
};

export function createLiveFeeds(opts: {
  prisma: PrismaClient;
  connectionString: string;
  log: Logger;
  /** Safety poll interval, ms. */
  pollMs: number;
  /** This process's notifier, whose commits wake the feeds without a round trip; none in a process that only reads. */
  notifier?: EventNotifier;
}): LiveFeeds {
  const listener = new FeedListener({ connectionString: opts.connectionString, log: opts.log, pollMs: opts.pollMs });
  const events = new EventFeed({ prisma: opts.prisma, log: opts.log, listener });
  const objects = new ObjectChangeFeed({ prisma: opts.prisma, log: opts.log, listener });
  const offLocal = opts.notifier?.onLocal((channel, key, position) => listener.local(channel, key, position));
  return {
    listener,
    events,
    objects,
    start: () => listener.start(),
    stop: async () => {
      offLocal?.();
      events.stop();
      objects.stop();
      await listener.stop();
    },
  };
}
