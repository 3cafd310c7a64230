// Composition root: builds the dependencies for one database and starts/stops them in order.
// Used by main.ts, the CLI and the tests.
import { createLiveFeeds } from './channel/live-feeds.ts';
import { EventNotifier } from './channel/notifier.ts';
import type { Config } from './config.ts';
import { createPrisma } from './db/client.ts';
import type { Deps } from './services/deps.ts';
import { createGraphQLServer, type GraphQLServer } from './http/yoga.ts';
import { listenToProvider, reconcileJobs, type JobDeps } from './generation/jobs.ts';
import { OpenAIImagesProvider } from './generation/openai-images.ts';
import { HttpGenerationProvider } from './generation/http-provider.ts';
import { ensureProviderSecret } from './generation/provider-protocol.ts';
import { fileUrlSecret } from './auth/file-urls.ts';
import { ensureMcpSecretKey } from './services/mcp/secret-key.ts';
import { useSigningKeyMaxAge } from './store/agents/signing-keys.ts';
import { RoutedProvider } from './generation/routed.ts';
import { cancelUpstreamOnCommit } from './generation/cancel-on-commit.ts';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { startHeartbeat } from './store/processes.ts';
import { SimulatedProvider } from './generation/simulated.ts';
import type { GenerationProvider } from './generation/types.ts';
import { startHttpServer, type RunningServer } from './http/server.ts';
import type { WebHandler } from './http/web.ts';
import { resolve } from 'node:path';
import { wakeOnJobEnd } from './runtime/wake.ts';
import { createEmbedder, type Embedder } from './routing/embeddings.ts';
import { createLogger, type Logger } from './log.ts';
import type { MemoryDeps } from './services/memory/extract-memories.ts';
import { ensureMemoryQueue, startMemoryWorker } from './services/memory/jobs.ts';
import { startWebhookWorker } from './services/webhooks/jobs.ts';
import { startScheduleWorker } from './services/schedules/jobs.ts';
import { startFollowUpWorker } from './services/follow-ups/jobs.ts';
import { ensureFollowUpQueue } from './store/follow-ups.ts';
import { ensureWebhookQueue } from './services/webhooks/queue.ts';
import { webhookSettings } from './services/webhooks/settings.ts';
import { createModelExtractor } from './services/memory/model-extractor.ts';
import { MemoryWorkerContext } from './services/memory/worker-context.ts';
import type { RuntimeDeps } from './runtime/deps.ts';
import { createModelProvider } from './runtime/models/provider.ts';
import type { ModelProvider } from './runtime/models/types.ts';
import { loadRuntimePlugin } from './runtime/plugin.ts';
import { PGBOSS_NOTIFY_CHANNEL, Scheduler } from './store/scheduler.ts';
import { loadCapabilities } from './runtime/capabilities.ts';
import { McpToolBus } from './runtime/mcp/bus.ts';
import { resolveSandbox } from './runtime/mcp/sandbox.ts';
import { deploymentDestinations, EgressGate, providerDownloadFetch, type Resolve } from './runtime/egress/gate.ts';
import { endsTask, settleMcpHoldsWhenEnded, sweepMcpHoldsOfEndedTasks } from './runtime/mcp/settle-ended.ts';
import { ToolRegistry } from './runtime/tools/registry.ts';
import { allBuiltinTools } from './runtime/tools/all.ts';
import type { ToolDef } from './runtime/tools/types.ts';
import { startWorker, type WorkerHandle } from './runtime/worker.ts';
import { sweepEventRetention } from './services/events/retention.ts';

export type App = {
  deps: Deps;
  yoga: GraphQLServer;
  /** Starts listening (port 0 picks a free port). */
  listen(opts?: { port?: number; host?: string; web?: WebHandler }): Promise<RunningServer>;
  /** Starts a worker in this process (pg-boss consumer, turns, watchdog). */
  startWorker(opts?: { concurrency?: number }): Promise<WorkerHandle>;
  close(): Promise<void>;
};

export type AppOptions = {
  log?: Logger;
  /** Replace the configured model (tests use scripted models). */
  models?: ModelProvider;
  /** Tools in addition to the built-in ones. */
  tools?: ToolDef[];
  /** Replace the configured embedding model (null: none). */
  embedder?: Embedder | null;
  /** Replace the generation provider (default: the simulated provider, files in <dataDir>/files). */
  provider?: GenerationProvider;
  /** Long-term memory overrides (tests: timeouts, fault injection, retry delay). */
  memory?: { timeoutMs?: number; retrievalDelayMs?: number; faults?: MemoryDeps['faults']; retryDelaySeconds?: number };
  /** How the egress gate resolves host names (tests: names that resolve where the test says). */
  egressResolve?: Resolve;
  /** The schedule runner's clock (tests move it over several slots; default: the real one). */
  schedules?: { now?: () => Date };
};

/**
 * Simulated by default (tests, demos, offline): in this process, or the provider service when a
 * provider URL is configured (main.ts sets it for the service it starts). Images at OpenAI when
 * configured, the rest simulated.
 */
/** ATELIER_PROVIDER_CALLBACK_URL may name an API (its origin) or the hook itself. */
function hookUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const u = new URL(url);
  return u.pathname === '/' || u.pathname === '' ? `${u.origin}/hooks/generation/simulated` : url;
}

function createGenerationProvider(config: Config, log: Logger, egress: EgressGate): GenerationProvider {
  const filesDir = resolve(config.dataDir, 'files');
  const p = config.provider;
  const simulated = p?.url
    ? new HttpGenerationProvider({ baseUrl: p.url, secret: p.secret ?? ensureProviderSecret(config.dataDir), filesDir, callbackUrl: hookUrl(p.callbackUrl), log, fetch: egress.fetchFor(null) })
    : new SimulatedProvider({ filesDir, ...p?.simulation });
  const { apiKey, baseUrl, imageProvider, imageModel } = config.openai;
  if (imageProvider !== 'openai' || !apiKey) return simulated;
  const images = new OpenAIImagesProvider({ apiKey, baseUrl, model: imageModel, filesDir, fetch: egress.fetchFor(null), download: providerDownloadFetch(egress) });
  return new RoutedProvider({ IMAGE: { provider: images, idPrefix: 'oai_img_' } }, simulated);
}

export async function createApp(config: Config, connectionString: string, opts: AppOptions = {}): Promise<App> {
  const log = opts.log ?? createLogger(config.logLevel);
  // The key of signed file URLs, resolved before anything starts (a production process without one
  // stops here); generated in the data dir when not configured.
  const files = { urlTtlSeconds: 900, ...config.files, urlSecret: fileUrlSecret(config) };
  // The key that seals MCP servers' tokens, likewise: the worker opens them to call the servers.
  ensureMcpSecretKey(config);
  // The same key seals the agents' signing keys; those older than the configured age are rotated on use.
  useSigningKeyMaxAge(config.agentKeys?.maxAgeMs);
  const prisma = createPrisma(connectionString);
  // One gate for every outbound HTTP call: workspaces reach only their allowed hosts; the
  // operator's providers are the deployment's own destinations.
  const egress = new EgressGate(
    { prisma, log },
    {
      allowPrivate: config.egress?.allowPrivate ?? false,
      deployment: deploymentDestinations([config.openai.baseUrl ?? (config.openai.apiKey ? 'https://api.openai.com/v1' : undefined), config.provider?.url]),
      ...(opts.egressResolve ? { resolve: opts.egressResolve } : {}),
    },
  );
  const notifier = new EventNotifier(prisma, log);
  // One LISTEN connection, reconnect loop and safety poll for every live feed of this process.
  const feeds = createLiveFeeds({ prisma, connectionString, log, pollMs: config.eventPollMs, notifier });
  const scheduler = new Scheduler(connectionString, log, { expireInSeconds: config.runtime.queueExpireSeconds, retryLimit: config.runtime.queueRetryLimit });
  // The same connection hears pg-boss's NOTIFY for a job sent anywhere: this process's idle
  // workers of that queue fetch it at once (turns, memory extraction), not at their next poll.
  feeds.listener.registerSignal(PGBOSS_NOTIFY_CHANNEL, { signal: (queue) => scheduler.wake(queue), signalAll: () => scheduler.wakeAll() });
  await feeds.start();
  await scheduler.start();
  await ensureMemoryQueue(scheduler.boss, opts.memory?.retryDelaySeconds);
  await ensureWebhookQueue(scheduler.boss, webhookSettings(config));
  await ensureFollowUpQueue(scheduler.boss);
  const plugin = await loadRuntimePlugin(config.runtime.plugin);
  const pluginModel = plugin.model;
  const models =
    opts.models ??
    (pluginModel
      ? { info: { provider: 'scripted' as const, workerModel: 'plugin', routerModel: 'plugin', offline: true, description: `model from ${config.runtime.plugin}` }, chat: () => pluginModel() }
      : createModelProvider({
          apiKey: config.openai.apiKey,
          baseUrl: config.openai.baseUrl,
          routerModel: config.openai.routerModel,
          workerModel: config.openai.workerModel,
          fetch: egress.fetchFor(null),
        }));
  const provider = opts.provider ?? createGenerationProvider(config, log, egress);
  const jobs: JobDeps = { prisma, notifier, provider, log, onJobEnd: wakeOnJobEnd(scheduler) };
  const stopListening = listenToProvider(jobs);
  // Cancelling a task, or a change of direction, cancels its unwanted jobs at the provider at once.
  const upstreamCancel = cancelUpstreamOnCommit(notifier, jobs);
  // A task's end settles the held prices of its MCP calls that will never get an outcome (their
  // turn holds no live lease); the reconciliation timer sweeps what a dead process missed.
  const stopSettlingEnded = notifier.onEvents((events) => {
    for (const taskId of new Set(events.filter(endsTask).map((e) => e.taskId))) {
      settleMcpHoldsWhenEnded(prisma, log, taskId);
    }
  });
  let lastHoldSweep = 0;
  const sweepEndedHolds = async () => {
    // A scan of the holds: at most once per holdSweepMs (a minute by default), never per request.
    if (Date.now() - lastHoldSweep < (config.runtime.holdSweepMs ?? 60_000)) return;
    lastHoldSweep = Date.now();
    await sweepMcpHoldsOfEndedTasks(prisma, log);
  };
  const capabilities = await loadCapabilities(provider);
  const runtime: RuntimeDeps = {
    prisma,
    notifier,
    scheduler,
    capabilities,
    tools: new ToolRegistry([...allBuiltinTools(capabilities, jobs, { egress, callbackBase: () => config.files?.publicUrl }, { scheduler }), ...(plugin.tools ?? []), ...(opts.tools ?? [])]),
    models,
    log,
    // The workspace's MCP servers' tools (connections pooled per process, closed with the app).
    mcp: new McpToolBus({ prisma, notifier, log, egress, sandbox: resolveSandbox(config, log) }),
    egress,
    options: {
      leaseMs: config.runtime.leaseMs,
      maxStepsPerTurn: config.runtime.maxStepsPerTurn,
      maxTurnsPerTask: config.runtime.maxTurnsPerTask,
      maxIdleTurns: config.runtime.maxIdleTurns,
      context: config.runtime.context,
      prices: config.runtime.prices,
    },
  };
  const embedder =
    opts.embedder !== undefined
      ? opts.embedder
      : createEmbedder({ apiKey: config.openai.apiKey, baseUrl: config.openai.baseUrl, model: config.openai.embeddingModel, fetch: egress.fetchFor(null) });
  // Long-term memory: extraction deps (jobs, on-demand) and the worker's context port.
  // With a configured model, extraction reads free wording through it (the cheaper router model);
  // offline, and with a test's scripted model, the rules do.
  const extractor = models.info.provider === 'openai' ? createModelExtractor({ model: models.chat('router'), modelName: models.info.routerModel, log }) : undefined;
  const memory: MemoryDeps = { prisma, log, embedder, faults: opts.memory?.faults, ...(extractor ? { extractor } : {}) };
  const memoryContext = new MemoryWorkerContext(
    { prisma, notifier, log, embedder },
    { timeoutMs: opts.memory?.timeoutMs ?? config.memory?.timeoutMs ?? 1000, retrievalDelayMs: opts.memory?.retrievalDelayMs },
  );
  runtime.memory = memoryContext;
  const deps: Deps = { config: { ...config, files }, prisma, notifier, hub: feeds.events, log, scheduler, runtime, embedder, jobs, memory: { ...memory, context: memoryContext }, objectFeed: feeds.objects, listener: feeds.listener, egress };
  const yoga = createGraphQLServer(deps);
  const servers: RunningServer[] = [];
  const workers: WorkerHandle[] = [];
  return {
    deps,
    yoga,
    listen: async (o = {}) => {
      const s = await startHttpServer(deps, yoga, { port: o.port ?? config.port, host: o.host ?? config.host, web: o.web });
      const beat = startHeartbeat(prisma, log, { id: `api:${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, kind: 'API', concurrency: 0, intervalMs: config.runtime.heartbeatMs ?? 5000, running: () => 0 });
      await beat.ready();
      servers.push({ ...s, close: async () => { await beat.stop(); await s.close(); } });
      // A provider that calls back over HTTP now has an address for its callbacks.
      provider.useCallbackBase?.(s.url);
      return s;
    },
    startWorker: async (o = {}) => {
      const w = await startWorker(runtime, {
        concurrency: o.concurrency ?? config.runtime.workerConcurrency,
        watchdogMs: config.runtime.watchdogMs,
        staleQueuedMs: config.runtime.staleQueuedMs,
        // Jobs whose callbacks went silent are polled; unclear submissions are looked up.
        // Orders whose submission was never recorded are submitted by their key after one lease.
        // Every `reconcileMs` when set, else at the watchdog period, on a timer of its own.
        reconcile: {
          everyMs: config.runtime.reconcileMs,
          run: () => Promise.all([reconcileJobs(jobs, { silentMs: Math.max(config.runtime.watchdogMs * 3, 5000), submittingMs: config.runtime.leaseMs }), sweepEndedHolds()]),
        },
        recoverySlots: config.runtime.recoverySlots,
        heartbeatMs: config.runtime.heartbeatMs,
        // Several workers may sweep at once: each batch deletes what it selected, and a second
        // pass over the same rows finds them gone.
        ...(config.runtime.eventRetention
          ? { upkeep: { name: 'event retention', everyMs: config.runtime.eventRetention.sweepMs, run: () => sweepEventRetention(prisma, config.runtime.eventRetention!.days, log) } }
          : {}),
      });
      const stopMemory = await startMemoryWorker(scheduler, memory);
      // Schedules: pg-boss's minute cron, a tick at start (what came due while down runs now).
      const schedules = await startScheduleWorker(deps, { tickMs: config.schedules?.tickMs, ...(opts.schedules?.now ? { now: opts.schedules.now } : {}) });
      // Webhooks: the dispatcher follows the event log, the send queue's consumers make the attempts.
      const webhooks = await startWebhookWorker(deps);
      // Follow-ups the agent asked for: their wake jobs, and a sweep (now, then on a timer) that
      // re-sends the jobs of due ones, so a lost job never loses a wake.
      const followUps = await startFollowUpWorker(deps);
      workers.push({ ...w, stop: async () => { await followUps.stop(); await webhooks.stop(); await schedules.stop(); await stopMemory(); await w.stop(); } });
      return w;
    },
    close: async () => {
      stopListening();
      upstreamCancel.stop();
      stopSettlingEnded();
      (provider as { close?: () => void }).close?.();
      for (const w of workers.splice(0)) await w.stop();
      for (const s of servers.splice(0)) await s.close();
      await runtime.mcp?.close();
      egress.close();
      await upstreamCancel.idle();
      await scheduler.stop();
      await feeds.stop();
      await notifier.drain();
      await prisma.$disconnect();
    },
  };
}
