// The process's dependencies, built once in main.ts (or a test) and passed to every service.
import type { EventHub } from './channel/hub.ts';
import type { EventNotifier } from './channel/notifier.ts';
import type { Config } from './config.ts';
import type { PrismaClient } from './db/client.ts';
import type { Logger } from './log.ts';

export type Deps = {
  config: Config;
  prisma: PrismaClient;
  notifier: EventNotifier;
  hub: EventHub;
  log: Logger;
};
