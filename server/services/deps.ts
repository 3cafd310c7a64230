// The process's dependencies, built once in main.ts (or a test) and passed to every service.
import type { EventFeed } from '../channel/event-feed.ts';
import type { FeedListener } from '../channel/listener.ts';
import type { EventNotifier } from '../channel/notifier.ts';
import type { ObjectChangeFeed } from '../channel/object-feed.ts';
import type { Config } from '../config.ts';
import type { PrismaClient } from '../db/client.ts';
import type { JobDeps } from '../generation/jobs.ts';
import type { Logger } from '../log.ts';
import type { Embedder } from '../routing/embeddings.ts';
import type { RuntimeDeps } from '../runtime/deps.ts';
import type { EgressGate } from '../runtime/egress/gate.ts';
import type { Scheduler } from '../store/scheduler.ts';
import type { MemoryDeps } from './memory/extract-memories.ts';
import type { MemoryWorkerContext } from './memory/worker-context.ts';

export type Deps = {
  config: Config;
  prisma: PrismaClient;
  notifier: EventNotifier;
  /** Live task and workspace event streams. */
  hub: EventFeed;
  log: Logger;
  scheduler: Scheduler;
  /** The durable runtime's dependencies (models, tools, options); workers run with these. */
  runtime: RuntimeDeps;
  /** Embeddings for the router's semantic retrieval; null without an embedding model. */
  embedder: Embedder | null;
  /** Generation jobs: provider, callbacks, waking. */
  jobs: JobDeps;
  /** Long-term memory: extraction and the worker's memory context. */
  memory: MemoryDeps & { context: MemoryWorkerContext };
  /** Live workspace object changes (shared workspace). */
  objectFeed: ObjectChangeFeed;
  /** The process's one LISTEN connection, shared by the live feeds above. */
  listener: FeedListener;
  /** Every outbound HTTP call of a workspace (webhooks, MCP discovery, remote agents) goes through it. */
  egress: EgressGate;
};
