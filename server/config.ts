// Process configuration, parsed once at start-up from the environment (zod at the boundary).
import { z } from 'zod';
import type { GenerationKind, SimulationSettings } from './domain/generation.ts';
import type { ContextOptions } from './domain/compaction.ts';
import { priceTableFromEnv, type PriceTable } from './domain/pricing.ts';

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
  /// Lexical tokens in one GraphQL document; parsing stops beyond (the largest app document has ~200).
  ATELIER_MAX_QUERY_TOKENS: z.coerce.number().int().positive().default(1000),
  /// Aliased fields in one document, fragments expanded.
  ATELIER_MAX_ALIASES: z.coerce.number().int().min(0).default(30),
  /// Directives in one document, fragments expanded.
  ATELIER_MAX_DIRECTIVES: z.coerce.number().int().min(0).default(20),
  /// Root fields of one mutation request; each also counts against the rate limit.
  ATELIER_MAX_MUTATIONS_PER_REQUEST: z.coerce.number().int().positive().default(10),
  /// Requests per minute per credential (token) before RATE_LIMITED.
  ATELIER_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(1200),
  /// Safety poll of the live feeds (events, object changes), catching a wake-up lost to a producer crash.
  ATELIER_EVENT_POLL_MS: z.coerce.number().int().positive().default(2000),
  ATELIER_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  ATELIER_GRAPHIQL: bool.default(true),
  /// Browser origins besides the server's own that may use the session cookie (credentialed CORS),
  /// comma-separated, e.g. `https://studio.example.com,http://localhost:3000`.
  ATELIER_ALLOWED_ORIGINS: z.string().optional(),
  /// How often open WebSockets re-check their credential; a revoked one is closed (4401).
  ATELIER_WS_REAUTH_MS: z.coerce.number().int().min(100).default(5000),
  /// An MCP session (/mcp) nobody used for this long, with no request open, is closed; its client starts a new one.
  ATELIER_MCP_SESSION_IDLE_MS: z.coerce.number().int().min(100).default(1_800_000),
  /// The web app on the same port: on (production build), dev (next dev in-process) or off (API only).
  ATELIER_WEB: z.enum(['on', 'dev', 'off']).default('on'),
  ATELIER_ROUTER_MODEL: z.string().optional(),
  ATELIER_WORKER_MODEL: z.string().optional(),
  /// Embedding model for the router's semantic retrieval (with OPENAI_API_KEY / OPENAI_BASE_URL).
  ATELIER_EMBEDDING_MODEL: z.string().optional(),
  /// Lease of a running turn; renewed every third of it. A dead worker's turn is taken over after it.
  ATELIER_LEASE_MS: z.coerce.number().int().min(100).default(5_000),
  ATELIER_WATCHDOG_MS: z.coerce.number().int().min(50).default(1_000),
  ATELIER_MEMORY_TIMEOUT_MS: z.coerce.number().int().min(1).default(1000),
  /// A queued turn whose wake-up is older than this is re-sent by the watchdog.
  ATELIER_STALE_QUEUED_MS: z.coerce.number().int().min(50).default(30_000),
  ATELIER_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /// Extra turn slots per worker kept for taken-over turns, so recovery never waits behind new work.
  ATELIER_RECOVERY_SLOTS: z.coerce.number().int().min(0).max(16).default(1),
  /// Job reconciliation: silent jobs polled, stuck orders submitted, unwanted jobs cancelled upstream
  /// (default: every watchdog tick).
  ATELIER_RECONCILE_MS: z.coerce.number().int().min(50).optional(),
  /// Event log retention: the folded history of tasks ended this many days ago is removed (unset: kept).
  ATELIER_EVENT_RETENTION_DAYS: z.coerce.number().positive().max(36_500).optional(),
  /// How often a worker runs the retention sweep.
  ATELIER_EVENT_RETENTION_SWEEP_MS: z.coerce.number().int().min(50).default(600_000),
  /// How often each process records its heartbeat (viewer.runtime.processes).
  ATELIER_HEARTBEAT_MS: z.coerce.number().int().min(50).default(5_000),
  /// Schedules: a worker also runs the schedule tick this often (unset: pg-boss's one-minute cron and
  /// a tick when the worker starts; slots are at least a minute apart, so tests use this to go faster).
  ATELIER_SCHEDULE_TICK_MS: z.coerce.number().int().min(50).optional(),
  /// Webhooks: how long a receiver may take to answer one attempt before it counts as failed.
  ATELIER_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(10_000),
  /// Webhooks: attempts per delivery (per series) before it is dead-lettered (DEAD).
  ATELIER_WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(10),
  /// Webhooks: the delay before the first retry; it doubles per attempt up to ATELIER_WEBHOOK_RETRY_MAX_MS.
  ATELIER_WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).default(5_000),
  ATELIER_WEBHOOK_RETRY_MAX_MS: z.coerce.number().int().min(10).default(3_600_000),
  /// Webhooks: how long a rotated-out signing secret still signs (rotateWebhookSecret's default grace).
  ATELIER_WEBHOOK_SECRET_GRACE_SECONDS: z.coerce.number().int().min(0).max(7 * 86_400).default(86_400),
  /// Webhooks: deliveries a worker process sends at once.
  ATELIER_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /// pg-boss: an active wake-up job of a dead worker expires after this (the lease recovers the turn sooner).
  ATELIER_QUEUE_EXPIRE_SECONDS: z.coerce.number().int().min(1).default(900),
  /// pg-boss: retries of a failed wake-up job.
  ATELIER_QUEUE_RETRY_LIMIT: z.coerce.number().int().min(0).max(100).default(3),
  ATELIER_MAX_STEPS_PER_TURN: z.coerce.number().int().min(1).max(200).default(12),
  ATELIER_MAX_TURNS_PER_TASK: z.coerce.number().int().min(1).max(1000).default(25),
  ATELIER_MAX_IDLE_TURNS: z.coerce.number().int().min(1).max(100).default(2),
  /** Context compaction starts above this many characters of request. */
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
  /// A running provider service (server/provider/) to use; unset: `npm start` runs one as a child process.
  ATELIER_PROVIDER_URL: z.string().url().optional(),
  /// The provider service's port (unset: `npm run provider` takes 4100, the child of `npm start` a free one).
  ATELIER_PROVIDER_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  ATELIER_PROVIDER_HOST: z.string().default('127.0.0.1'),
  /// Shared by the API and the provider service (bearer token, callback signatures); unset: generated in the data dir.
  ATELIER_PROVIDER_SECRET: z.string().min(16).optional(),
  /// Where the provider sends callbacks: an API's URL (its /hooks/generation/simulated) or the hook's full
  /// URL. Default: this process's own API URL; worker-only processes without it poll.
  ATELIER_PROVIDER_CALLBACK_URL: z.string().url().optional(),
  /// Simulation settings: latency (`1000` for all kinds, or `IMAGE=200,VIDEO=800`), fault rates 0..1, seed.
  ATELIER_SIM_LATENCY_MS: z.string().optional(),
  ATELIER_SIM_FAILURE_RATE: z.coerce.number().min(0).max(1).optional(),
  ATELIER_SIM_UNKNOWN_SUBMIT_RATE: z.coerce.number().min(0).max(1).optional(),
  ATELIER_SIM_DUPLICATE_CALLBACK_RATE: z.coerce.number().min(0).max(1).optional(),
  ATELIER_SIM_OUT_OF_ORDER_RATE: z.coerce.number().min(0).max(1).optional(),
  ATELIER_SIM_MISSING_CALLBACK_RATE: z.coerce.number().min(0).max(1).optional(),
  ATELIER_SIM_SEED: z.coerce.number().int().optional(),
  /// The server's public base URL (`https://atelier.example.com`, a path prefix allowed) for the absolute
  /// URLs it hands out (signed file URLs); unset: the origin each request was addressed to (Host, X-Forwarded-Proto).
  ATELIER_PUBLIC_URL: z.string().url().optional(),
  /// Key of signed file URLs; unset: generated in the data dir (required when NODE_ENV=production).
  ATELIER_FILE_URL_SECRET: z.string().min(32).optional(),
  /// Lifetime of a signed file URL (ObjectFile.url), in seconds.
  ATELIER_FILE_URL_TTL_SECONDS: z.coerce.number().int().min(1).max(7 * 86_400).default(900),
  /// MCP servers an owner may register as a command (comma-separated absolute paths or bare names);
  /// empty by default: registering a command runs it on this server, so the operator decides which.
  ATELIER_MCP_STDIO_COMMANDS: z.string().default(''),
  /// Key sealing MCP servers' bearer tokens at rest (32 bytes, base64); unset: generated in the data
  /// dir (required when NODE_ENV=production).
  ATELIER_MCP_SECRET_KEY: z.string().min(43).optional(),
  /// Outbound calls of workspaces (MCP over HTTP, webhooks, remote agents) may reach loopback, private and
  /// link-local addresses: off by default (an allowed name that resolves to an internal address is refused).
  ATELIER_EGRESS_ALLOW_PRIVATE: bool.default(false),
  /// How MCP servers started as a command run: `bwrap` (bubblewrap: no network, a private scratch dir,
  /// read-only system dirs, limits), `off` (a plain child process); unset: bwrap when it is on PATH.
  ATELIER_MCP_SANDBOX: z.enum(['bwrap', 'off']).optional(),
  /// Address space of a sandboxed MCP server process, in MiB.
  ATELIER_MCP_SANDBOX_MEMORY_MB: z.coerce.number().int().min(64).max(65_536).default(1024),
  /// CPU seconds a sandboxed MCP server process may use in its life (it is started again on the next call).
  ATELIER_MCP_SANDBOX_CPU_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /// Age after which a workspace's agent signing key is rotated on its next use (ms; default 30 days). The old
  /// key keeps verifying the credentials it signed until they expire (10 minutes).
  ATELIER_AGENT_KEY_MAX_AGE_MS: z.coerce.number().int().min(60_000).default(30 * 86_400_000),
  NODE_ENV: z.string().optional(),
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
  maxQueryTokens: number;
  maxAliases: number;
  maxDirectives: number;
  maxMutationsPerRequest: number;
  rateLimitPerMinute: number;
  eventPollMs: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  graphiql: boolean;
  /** Extra browser origins trusted with the session cookie (the server's own origin always is). */
  allowedOrigins?: string[];
  /** Interval of the credential re-check of open WebSockets. */
  wsReauthMs?: number;
  /** An idle MCP session (/mcp) is closed after this long; unset: 30 minutes. */
  mcpSessionIdleMs?: number;
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
    /** Extra slots for taken-over turns (recovery first). */
    recoverySlots?: number;
    reconcileMs?: number;
    /** How often the reconciliation timer also sweeps ended tasks' unsettled MCP call prices (default a minute). */
    holdSweepMs?: number;
    /** Event log retention (store/retention.ts); unset keeps every event. */
    eventRetention?: { days: number; sweepMs: number };
    heartbeatMs?: number;
    queueExpireSeconds?: number;
    queueRetryLimit?: number;
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
  /** Webhook deliveries (services/webhooks/); unset: the defaults of ATELIER_WEBHOOK_*. */
  webhooks?: WebhookSettings;
  /** The schedule runner (services/schedules/jobs.ts): an extra tick every tickMs; unset: the minute cron only. */
  schedules?: { tickMs?: number };
  /** Signed file URLs (auth/file-urls.ts) and the origin absolute URLs are built on. */
  files?: {
    /** Unset: generated in the data dir, unless `production` (then starting fails). */
    urlSecret?: string;
    urlTtlSeconds: number;
    /** Base of the absolute URLs handed out (no trailing slash); unset: the request's origin. */
    publicUrl?: string;
    /** NODE_ENV=production: the URL secret must be configured. */
    production?: boolean;
  };
  /** MCP servers (services/mcp/): what an owner may register and how tokens are sealed. */
  mcp?: {
    /** Commands a STDIO server may run (ATELIER_MCP_STDIO_COMMANDS); empty: none. */
    stdioCommands: string[];
    /** Base64 of 32 bytes; unset: generated in the data dir, unless `production`. */
    secretKey?: string;
    production?: boolean;
    /** Containment of STDIO servers (runtime/mcp/sandbox.ts); unset: bwrap when available. */
    sandbox?: { mode?: 'bwrap' | 'off'; memoryMb: number; cpuSeconds: number };
  };
  /** The egress gate (runtime/egress/gate.ts); unset: internal addresses refused. */
  egress?: { allowPrivate: boolean };
  /** The agents' signing keys (store/agents/signing-keys.ts): rotated on use once older than maxAgeMs. */
  agentKeys?: { maxAgeMs: number };
  /** The simulated generation provider: in process, or the provider service at `url`. */
  provider?: {
    url?: string;
    port?: number;
    host: string;
    secret?: string;
    callbackUrl?: string;
    simulation: SimulationSettings;
  };
};

export type WebhookSettings = {
  /** One attempt's bound: connect, send and the receiver's status line. */
  timeoutMs: number;
  /** Attempts per series; the last failure makes the delivery DEAD. */
  maxAttempts: number;
  /** Retry n waits min(retryMaxMs, retryBaseMs × 2^(n-1)), jittered by up to a fifth less. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Default grace of a rotated-out secret. */
  secretGraceSeconds: number;
  /** Sends in flight per worker process. */
  concurrency: number;
};

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  timeoutMs: 10_000,
  maxAttempts: 10,
  retryBaseMs: 5_000,
  retryMaxMs: 3_600_000,
  secretGraceSeconds: 86_400,
  concurrency: 4,
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
    maxQueryTokens: e.ATELIER_MAX_QUERY_TOKENS,
    maxAliases: e.ATELIER_MAX_ALIASES,
    maxDirectives: e.ATELIER_MAX_DIRECTIVES,
    maxMutationsPerRequest: e.ATELIER_MAX_MUTATIONS_PER_REQUEST,
    rateLimitPerMinute: e.ATELIER_RATE_LIMIT_PER_MINUTE,
    eventPollMs: e.ATELIER_EVENT_POLL_MS,
    logLevel: e.ATELIER_LOG_LEVEL,
    graphiql: e.ATELIER_GRAPHIQL,
    allowedOrigins: parseOrigins(e.ATELIER_ALLOWED_ORIGINS),
    wsReauthMs: e.ATELIER_WS_REAUTH_MS,
    mcpSessionIdleMs: e.ATELIER_MCP_SESSION_IDLE_MS,
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
      recoverySlots: e.ATELIER_RECOVERY_SLOTS,
      reconcileMs: e.ATELIER_RECONCILE_MS,
      ...(e.ATELIER_EVENT_RETENTION_DAYS ? { eventRetention: { days: e.ATELIER_EVENT_RETENTION_DAYS, sweepMs: e.ATELIER_EVENT_RETENTION_SWEEP_MS } } : {}),
      heartbeatMs: e.ATELIER_HEARTBEAT_MS,
      queueExpireSeconds: e.ATELIER_QUEUE_EXPIRE_SECONDS,
      queueRetryLimit: e.ATELIER_QUEUE_RETRY_LIMIT,
      maxStepsPerTurn: e.ATELIER_MAX_STEPS_PER_TURN,
      maxTurnsPerTask: e.ATELIER_MAX_TURNS_PER_TASK,
      maxIdleTurns: e.ATELIER_MAX_IDLE_TURNS,
      plugin: e.ATELIER_RUNTIME_PLUGIN,
      context: { compactAtChars: e.ATELIER_CONTEXT_COMPACT_AT_CHARS, keepRecentSteps: e.ATELIER_CONTEXT_KEEP_RECENT_STEPS },
      prices: priceTableFromEnv(e.ATELIER_MODEL_PRICES),
    },
    memory: { timeoutMs: e.ATELIER_MEMORY_TIMEOUT_MS },
    ...(e.ATELIER_SCHEDULE_TICK_MS ? { schedules: { tickMs: e.ATELIER_SCHEDULE_TICK_MS } } : {}),
    webhooks: {
      timeoutMs: e.ATELIER_WEBHOOK_TIMEOUT_MS,
      maxAttempts: e.ATELIER_WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: e.ATELIER_WEBHOOK_RETRY_BASE_MS,
      retryMaxMs: Math.max(e.ATELIER_WEBHOOK_RETRY_MAX_MS, e.ATELIER_WEBHOOK_RETRY_BASE_MS),
      secretGraceSeconds: e.ATELIER_WEBHOOK_SECRET_GRACE_SECONDS,
      concurrency: e.ATELIER_WEBHOOK_CONCURRENCY,
    },
    mcp: {
      stdioCommands: e.ATELIER_MCP_STDIO_COMMANDS.split(',').map((x) => x.trim()).filter(Boolean),
      secretKey: e.ATELIER_MCP_SECRET_KEY,
      production: e.NODE_ENV === 'production',
      sandbox: { ...(e.ATELIER_MCP_SANDBOX ? { mode: e.ATELIER_MCP_SANDBOX } : {}), memoryMb: e.ATELIER_MCP_SANDBOX_MEMORY_MB, cpuSeconds: e.ATELIER_MCP_SANDBOX_CPU_SECONDS },
    },
    egress: { allowPrivate: e.ATELIER_EGRESS_ALLOW_PRIVATE },
    files: {
      urlSecret: e.ATELIER_FILE_URL_SECRET,
      urlTtlSeconds: e.ATELIER_FILE_URL_TTL_SECONDS,
      publicUrl: e.ATELIER_PUBLIC_URL?.replace(/\/+$/, ''),
      production: e.NODE_ENV === 'production',
    },
    agentKeys: { maxAgeMs: e.ATELIER_AGENT_KEY_MAX_AGE_MS },
    provider: {
      url: e.ATELIER_PROVIDER_URL,
      port: e.ATELIER_PROVIDER_PORT,
      host: e.ATELIER_PROVIDER_HOST,
      secret: e.ATELIER_PROVIDER_SECRET,
      callbackUrl: e.ATELIER_PROVIDER_CALLBACK_URL,
      simulation: {
        ...(e.ATELIER_SIM_LATENCY_MS ? { latencyMs: parseLatency(e.ATELIER_SIM_LATENCY_MS) } : {}),
        ...(e.ATELIER_SIM_FAILURE_RATE !== undefined ? { failureRate: e.ATELIER_SIM_FAILURE_RATE } : {}),
        ...(e.ATELIER_SIM_UNKNOWN_SUBMIT_RATE !== undefined ? { unknownSubmitRate: e.ATELIER_SIM_UNKNOWN_SUBMIT_RATE } : {}),
        ...(e.ATELIER_SIM_DUPLICATE_CALLBACK_RATE !== undefined ? { duplicateCallbackRate: e.ATELIER_SIM_DUPLICATE_CALLBACK_RATE } : {}),
        ...(e.ATELIER_SIM_OUT_OF_ORDER_RATE !== undefined ? { outOfOrderRate: e.ATELIER_SIM_OUT_OF_ORDER_RATE } : {}),
        ...(e.ATELIER_SIM_MISSING_CALLBACK_RATE !== undefined ? { missingCallbackRate: e.ATELIER_SIM_MISSING_CALLBACK_RATE } : {}),
        ...(e.ATELIER_SIM_SEED !== undefined ? { seed: e.ATELIER_SIM_SEED } : {}),
      },
    },
  };
}

/** `1000` (every kind) or `IMAGE=200,VIDEO=800` (the kinds named; the others keep their default). */
function parseLatency(raw: string): Partial<Record<GenerationKind, number>> {
  const kinds: GenerationKind[] = ['IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D'];
  const bad = () => new Error(`Invalid configuration:\n  ATELIER_SIM_LATENCY_MS: "${raw}" is not a number of ms or a list like IMAGE=200,VIDEO=800`);
  if (/^\d+$/.test(raw.trim())) return Object.fromEntries(kinds.map((k) => [k, Number(raw)]));
  const out: Partial<Record<GenerationKind, number>> = {};
  for (const part of raw.split(',')) {
    const m = /^\s*([A-Z_0-9]+)\s*=\s*(\d+)\s*$/.exec(part.toUpperCase());
    if (!m || !kinds.includes(m[1] as GenerationKind)) throw bad();
    out[m[1] as GenerationKind] = Number(m[2]);
  }
  return out;
}

/** Origins as the browser sends them (scheme://host[:port]); `*` is refused: it would hand the
 * session cookie to every site. */
function parseOrigins(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => {
      if (o === '*') throw new Error('Invalid configuration:\n  ATELIER_ALLOWED_ORIGINS: "*" is not allowed; list the origins');
      let u: URL;
      try {
        u = new URL(o);
      } catch {
        throw new Error(`Invalid configuration:\n  ATELIER_ALLOWED_ORIGINS: "${o}" is not an origin (scheme://host[:port])`);
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') {
        throw new Error(`Invalid configuration:\n  ATELIER_ALLOWED_ORIGINS: "${o}" is not an http(s) origin`);
      }
      return u.origin;
    });
}
