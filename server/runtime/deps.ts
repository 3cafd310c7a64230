// What the runtime needs, passed in (never imported as globals). No GraphQL here.
import type { EventNotifier } from '../channel/notifier.ts';
import type { PrismaClient } from '../db/client.ts';
import type { Logger } from '../log.ts';
import type { WorkerMemory } from './memory.ts';
import type { ModelProvider } from './models/types.ts';
import type { Scheduler } from '../store/scheduler.ts';
import type { ToolRegistry } from './tools/registry.ts';
import type { McpToolBus } from './mcp/bus.ts';
import type { EgressGate } from './egress/gate.ts';
import type { Capabilities } from './capabilities.ts';
import type { ContextOptions } from '../domain/compaction.ts';
import type { PriceTable } from '../domain/pricing.ts';

export type RuntimeOptions = {
  /** How long a claim lasts without renewal. Renewed every third of it while the worker runs. */
  leaseMs: number;
  /** Steps per turn before the turn ends and a new one is scheduled. */
  maxStepsPerTurn: number;
  /** Turns per task before the task fails instead of looping. */
  maxTurnsPerTask: number;
  /** Consecutive turns without meaningful progress before the runtime stops the task (default 2). */
  maxIdleTurns?: number;
  /** Context compaction thresholds (compaction.ts); defaults apply to what is left out. */
  context?: Partial<ContextOptions>;
  /** Model prices for cost accounting (models/pricing.ts). */
  prices?: PriceTable;
};

export type RuntimeDeps = {
  prisma: PrismaClient;
  notifier: EventNotifier;
  scheduler: Scheduler;
  tools: ToolRegistry;
  models: ModelProvider;
  log: Logger;
  options: RuntimeOptions;
  /** What the platform can do (for plans and the worker's context). */
  capabilities?: Capabilities;
  /** The workspace's MCP servers' tools, merged into each step's tools; absent: built-in tools only. */
  mcp?: McpToolBus;
  /** Long-term memory for worker contexts; absent: no memory section. */
  memory?: WorkerMemory;
  /** The egress gate: a tool that calls out over HTTP (remote agents, …) sends through it (egressFetch). */
  egress?: EgressGate;
};

export const DEFAULT_RUNTIME_OPTIONS: RuntimeOptions = { leaseMs: 30_000, maxStepsPerTurn: 12, maxTurnsPerTask: 25 };
