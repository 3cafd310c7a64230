// Process configuration, parsed once at start-up from the environment (zod at the boundary).
import { z } from 'zod';
import type { ContextOptions } from './runtime/compaction.ts';
import { priceTableFromEnv, type PriceTable } from './runtime/models/pricing.ts';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const EnvSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('127.0.0.1'),
  ATELIER_DATA_DIR: z.string().default('.data'),
  ATELIER_EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /// Largest accepted request body, in bytes.
  ATELIER_MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_000_000),
  ATELIER_MAX_QUERY_DEPTH: z.coerce.number().int().positive().default(12),
  ATELIER_MAX_QUERY_COST: z.coerce.number().int().positive().default(20_000),
  /// Requests per minute per credential (token) before RATE_LIMITED.
  ATELIER_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(1200),
  /// Safety poll of the event hub, catching a wake-up lost to a producer crash.
  ATELIER_EVENT_POLL_MS: z.coerce.number().int().positive().default(2000),
  ATELIER_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  ATELIER_GRAPHIQL: bool.default(true),
  /// The web app on the same port: on (production build), dev (next dev in-process) or off (API only).
  ATELIER_WEB: z.enum(['on', 'dev', 'off']).default('on'),
  ATELIER_ROUTER_MODEL: z.string().optional(),
  ATELIER_WORKER_MODEL: z.string().optional(),
  /// Embedding model for the router's semantic retrieval (with OPENAI_API_KEY / OPENAI_BASE_URL).
  ATELIER_EMBEDDING_MODEL: z.string().optional(),
  /// Lease of a running turn; renewed every third of it. A dead worker's turn is taken over after it.
  ATELIER_LEASE_MS: z.coerce.number().int().min(100).default(30_000),
  ATELIER_WATCHDOG_MS: z.coerce.number().int().min(50).default(10_000),
  ATELIER_MEMORY_TIMEOUT_MS: z.coerce.number().int().min(1).default(300),
  /// A queued turn whose wake-up is older than this is re-sent by the watchdog.
  ATELIER_STALE_QUEUED_MS: z.coerce.number().int().min(50).default(30_000),
  ATELIER_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  ATELIER_MAX_STEPS_PER_TURN: z.coerce.number().int().min(1).max(200).default(12),
  ATELIER_MAX_TURNS_PER_TASK: z.coerce.number().int().min(1).max(1000).default(25),
  ATELIER_MAX_IDLE_TURNS: z.coerce.number().int().min(1).max(100).default(2),
  /** Context compaction starts above this many characters of request (issue 9). */
  ATELIER_CONTEXT_COMPACT_AT_CHARS: z.coerce.number().int().min(2000).default(40_000),
  ATELIER_CONTEXT_KEEP_RECENT_STEPS: z.coerce.number().int().min(1).max(100).default(6),
  /** Model prices, JSON: { "<model>": { inputPerMTok, cachedInputPerMTok, outputPerMTok } } in cents. */
  ATELIER_MODEL_PRICES: z.string().optional(),
  /// Module adding tools (and optionally a model) to the runtime: `export default { tools, model }`.
  ATELIER_RUNTIME_PLUGIN: z.string().optional(),
  /// `openai`: images through the OpenAI Images API (needs OPENAI_API_KEY); other kinds stay simulated.
  ATELIER_IMAGE_PROVIDER: z.enum(['simulated', 'openai']).default('simulated'),
  ATELIER_IMAGE_MODEL: z.string().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
});

export type Config = {
  databaseUrl: string | undefined;
  port: number;
  host: string;
  dataDir: string;
  embeddedPgPort: number;
  maxBodyBytes: number;
  maxQueryDepth: number;
  maxQueryCost: number;
  rateLimitPerMinute: number;
  eventPollMs: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  graphiql: boolean;
  web?: 'on' | 'dev' | 'off';
  openai: {
    apiKey: string | undefined;
    baseUrl: string | undefined;
    routerModel: string | undefined;
    workerModel: string | undefined;
    embeddingModel?: string | undefined;
    /** The image generation provider; `openai` only takes effect with an API key. */
    imageProvider?: 'simulated' | 'openai';
    imageModel?: string | undefined;
  };
  runtime: {
    leaseMs: number;
    watchdogMs: number;
    staleQueuedMs: number;
    workerConcurrency: number;
    maxStepsPerTurn: number;
    maxTurnsPerTask: number;
    maxIdleTurns?: number;
    plugin: string | undefined;
    /** Context compaction (runtime/compaction.ts). */
    context?: Partial<ContextOptions>;
    prices?: PriceTable;
  };
  /** Long-term memory: retrieval for a worker step gives up after this (the step goes on without it). */
  memory?: { timeoutMs: number };
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set" (e.g. `DATABASE_URL= npm start`).
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    databaseUrl: e.DATABASE_URL,
    port: e.PORT,
    host: e.HOST,
    dataDir: e.ATELIER_DATA_DIR,
    embeddedPgPort: e.ATELIER_EMBEDDED_PG_PORT,
    maxBodyBytes: e.ATELIER_MAX_BODY_BYTES,
    maxQueryDepth: e.ATELIER_MAX_QUERY_DEPTH,
    maxQueryCost: e.ATELIER_MAX_QUERY_COST,
    rateLimitPerMinute: e.ATELIER_RATE_LIMIT_PER_MINUTE,
    eventPollMs: e.ATELIER_EVENT_POLL_MS,
    logLevel: e.ATELIER_LOG_LEVEL,
    graphiql: e.ATELIER_GRAPHIQL,
    web: e.ATELIER_WEB,
    openai: {
      apiKey: e.OPENAI_API_KEY,
      baseUrl: e.OPENAI_BASE_URL,
      routerModel: e.ATELIER_ROUTER_MODEL,
      workerModel: e.ATELIER_WORKER_MODEL,
      embeddingModel: e.ATELIER_EMBEDDING_MODEL,
      imageProvider: e.ATELIER_IMAGE_PROVIDER,
      imageModel: e.ATELIER_IMAGE_MODEL,
    },
    runtime: {
      leaseMs: e.ATELIER_LEASE_MS,
      watchdogMs: e.ATELIER_WATCHDOG_MS,
      staleQueuedMs: e.ATELIER_STALE_QUEUED_MS,
      workerConcurrency: e.ATELIER_WORKER_CONCURRENCY,
      maxStepsPerTurn: e.ATELIER_MAX_STEPS_PER_TURN,
      maxTurnsPerTask: e.ATELIER_MAX_TURNS_PER_TASK,
      maxIdleTurns: e.ATELIER_MAX_IDLE_TURNS,
      plugin: e.ATELIER_RUNTIME_PLUGIN,
      context: { compactAtChars: e.ATELIER_CONTEXT_COMPACT_AT_CHARS, keepRecentSteps: e.ATELIER_CONTEXT_KEEP_RECENT_STEPS },
      prices: priceTableFromEnv(e.ATELIER_MODEL_PRICES),
    },
    memory: { timeoutMs: e.ATELIER_MEMORY_TIMEOUT_MS },
  };
}
