// Scenario runs: a scripted user talks to the real product — GraphQL over HTTP, the
// router, the durable runtime with a worker, the simulated provider — and is scored on what a
// person would feel: "continue" messages they had to send, needless confirmations, duplicate
// generations, misrouted messages, stale object reads, forked copies of one work, lost wake-ups and
// total cost. The model is the offline model (explicit rules) unless a model is configured.
//
// Nothing is shortened for the runs: the runtime keeps its default timings (lease, watchdog, stale
// re-send) and the simulated provider its default latencies, so a lost wake-up or a missing
// callback costs what it costs in production and is counted. The provider injects faults (failures,
// duplicate, out-of-order and missing callbacks, submissions with an unknown outcome) drawn from the
// run's seed, so the recovery paths are part of every run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimJob, SimulationEngine, SimulationSettings } from '../../server/generation/simulation.ts';
import { SimulatedProvider } from '../../server/generation/simulated.ts';
import { SubmissionOutcomeUnknown } from '../../server/generation/types.ts';
import type { ModelProvider } from '../../server/runtime/models/types.ts';
import type { WorkerHandle } from '../../server/runtime/worker.ts';
import { graphql } from '../gql/index.ts';
import { startTestApp, testConfig, type TestApp } from '../helpers/app.ts';
import { gql, toGlobalId } from '../helpers/clients.ts';
import { waitFor } from '../helpers/wait.ts';

const Send = graphql(`
  mutation ScenarioSend($input: SendMessageInput!) {
    sendMessage(input: $input) {
      route { outcome task { id } }
      task { id title }
      card { id options { id label action task { id } } }
    }
  }
`);
const Resolve = graphql(`
  mutation ScenarioResolve($input: ResolveApprovalInput!) {
    resolveApproval(input: $input) { approval { id status } }
  }
`);
const Signal = graphql(`
  mutation ScenarioSignal($input: SignalTaskInput!) {
    signalTask(input: $input) { task { id status } }
  }
`);

export type Metrics = {
  continues: number;
  needlessConfirmations: number;
  duplicateGenerations: number;
  misrouted: number;
  staleReads: number;
  forkedCopies: number;
  lostWakeups: number;
  costCents: number;
  cards: number;
  messages: number;
  jobs: number;
};

/** The provider faults a run met (each one a recovery path the run went through). */
export type Faults = { failed: number; unknownSubmit: number; missingCallback: number; duplicateCallback: number; lateCallback: number };

/** The provider faults of a scenario run (probabilities, drawn per job from the run's seed). */
export const SCENARIO_FAULTS: Omit<SimulationSettings, 'seed' | 'latencyMs'> = {
  failureRate: 0.08,
  unknownSubmitRate: 0.08,
  duplicateCallbackRate: 0.25,
  outOfOrderRate: 0.25,
  missingCallbackRate: 0.06,
};

/** A turn whose wake-up took longer than this to be picked up had lost it (a healthy one: ~1 s). */
export const LOST_WAKEUP_MS = 10_000;

export type CardPolicy = (card: { id: string; kind: string; title: string; options: { id: string; label: string }[] }) =>
  | { decision: 'APPROVE' | 'REJECT'; choice?: string; note?: string }
  | null;

export type ScenarioContext = {
  t: TestApp;
  metrics: Metrics;
  /** The run's seed for this scenario (paraphrases, choices, provider faults). */
  seed: number;
  /** A seeded pick from a pool. */
  pick<T>(pool: readonly T[]): T;
  /** Sends a message in the main thread; `expect` is where a person would say it belongs. */
  say(text: string, expect: 'new' | { taskId: string } | 'answer' | 'any', opts?: { taskId?: string }): Promise<string | null>;
  /** Drives the task until it ends (or `until` holds), answering cards with the policy. */
  settle(taskId: string, policy: CardPolicy, opts?: { until?: () => Promise<boolean>; expectCards?: Record<string, number> }): Promise<string>;
  signal(taskId: string, signal: 'PAUSE' | 'RESUME' | 'CANCEL' | 'REVISE' | 'ADD_CONTEXT', text?: string): Promise<void>;
  status(taskId: string): Promise<string>;
  /** Starts the worker (for `startWorker: false`). */
  startWorker(): Promise<void>;
};

export type ScenarioOptions = {
  models?: ModelProvider;
  /** Seed of the paraphrase picks and of the provider's faults (default 1). */
  seed?: number;
  /** Provider faults (default none); the scenario runs pass SCENARIO_FAULTS. */
  faults?: Omit<SimulationSettings, 'seed' | 'latencyMs'>;
  /** Start the worker before the scenario (default true). */
  startWorker?: boolean;
};

let keySeq = 0;
const key = (p: string) => `${p}-${Date.now()}-${++keySeq}`;

/** Spreads nearby seeds apart (splitmix32), so scenario i and i+1 of one run draw independently. */
export function mixSeed(seed: number): number {
  let z = (seed + 0x9e3779b9) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0 || 1;
}

/** A small deterministic generator (xorshift32) for the paraphrase picks and the user's choices. */
export function seededRandom(seed: number): () => number {
  let s = mixSeed(seed);
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'];
const LIVE_JOB = ['SUBMITTING', 'QUEUED', 'RUNNING', 'UNKNOWN'] as const;

export async function withScenario<T>(label: string, fn: (ctx: ScenarioContext) => Promise<T>, opts: ScenarioOptions = {}): Promise<{ value: T; metrics: Metrics; faults: Faults }> {
  const dir = mkdtempSync(join(tmpdir(), `atelier-scn-${label}-`));
  const seed = opts.seed ?? 1;
  // Default timings: lease, watchdog and stale re-send exactly as configured for production.
  const runtime = { ...testConfig().runtime, workerConcurrency: 2 };
  const provider = new SimulatedProvider({ filesDir: dir, seed: mixSeed(seed ^ 0x5bd1e995), ...(opts.faults ?? {}) });
  const faults: Faults = { failed: 0, unknownSubmit: 0, missingCallback: 0, duplicateCallback: 0, lateCallback: 0 };
  const submit = provider.submit.bind(provider);
  provider.submit = async (req) => {
    try {
      return await submit(req);
    } catch (e) {
      if (e instanceof SubmissionOutcomeUnknown) faults.unknownSubmit++;
      throw e;
    }
  };
  const t = await startTestApp(`scn_${label}`, { runtime }, { provider, ...(opts.models ? { models: opts.models } : {}) });
  let worker: WorkerHandle | undefined;
  const metrics: Metrics = {
    continues: 0,
    needlessConfirmations: 0,
    duplicateGenerations: 0,
    misrouted: 0,
    staleReads: 0,
    forkedCopies: 0,
    lostWakeups: 0,
    costCents: 0,
    cards: 0,
    messages: 0,
    jobs: 0,
  };
  const prisma = t.app.deps.prisma;
  const ws = toGlobalId('Workspace', t.a.workspaceId);
  const handled = new Set<string>();
  const random = seededRandom(seed);
  try {
    if (opts.startWorker !== false) worker = await t.app.startWorker({ concurrency: 2 });
    const ctx: ScenarioContext = {
      t,
      metrics,
      seed,
      pick: (pool) => pool[Math.floor(random() * pool.length)]!,
      async startWorker() {
        worker ??= await t.app.startWorker({ concurrency: 2 });
      },
      async say(text, expect, o = {}) {
        metrics.messages++;
        const r = await gql(t.url, t.a.ownerToken, Send, {
          input: { workspaceId: ws, text, idempotencyKey: key('msg'), ...(o.taskId ? { taskId: toGlobalId('Task', o.taskId) } : {}) },
        });
        if (r.errors?.length) throw new Error(`sendMessage: ${r.errors[0]!.message}`);
        let taskId = r.data!.sendMessage.task?.id ? fromGlobal(r.data!.sendMessage.task.id) : null;
        const card = r.data!.sendMessage.card;
        if (card && !taskId) {
          // A clarification card: the scripted user picks what a person would.
          metrics.misrouted += expect === 'any' ? 0 : 1;
          const want = typeof expect === 'object' ? card.options.find((o2) => o2.task && fromGlobal(o2.task.id) === expect.taskId) : card.options.find((o2) => o2.action === 'create');
          const pick = want ?? card.options[0]!;
          const r2 = await gql(t.url, t.a.ownerToken, Send, { input: { workspaceId: ws, text: pick.label, idempotencyKey: key('card'), cardAction: { cardId: card.id, optionId: pick.id } } });
          taskId = r2.data?.sendMessage.task?.id ? fromGlobal(r2.data.sendMessage.task.id) : null;
          return taskId;
        }
        const outcome = r.data!.sendMessage.route.outcome;
        if (expect === 'new' && !(outcome === 'NEW_TASK' || outcome === 'LIGHTWEIGHT_TASK')) metrics.misrouted++;
        if (typeof expect === 'object' && taskId !== expect.taskId) metrics.misrouted++;
        if (expect === 'answer' && outcome !== 'ANSWER') metrics.misrouted++;
        return taskId;
      },
      async settle(taskId, policy, o = {}) {
        const seen: Record<string, number> = {};
        let stuckSince: number | null = null;
        // The scripted person looks at the task until it ends: answers the cards it is shown, and
        // types "continue" when nothing runs and nobody asks. Each look is one check of the wait.
        const look = async (): Promise<string | null> => {
          if (o.until && (await o.until())) return ctx.status(taskId);
          const task = await prisma.task.findUniqueOrThrow({ where: { id: taskId } });
          if (TERMINAL.includes(task.status)) return task.status;
          const pending = await prisma.approval.findMany({ where: { taskId, status: 'PENDING' }, orderBy: { createdAt: 'asc' } });
          const fresh = pending.filter((p) => !handled.has(p.id));
          if (fresh.length) {
            stuckSince = null;
            for (const a of fresh) {
              handled.add(a.id);
              metrics.cards++;
              seen[a.kind] = (seen[a.kind] ?? 0) + 1;
              if (o.expectCards && seen[a.kind]! > (o.expectCards[a.kind] ?? 0)) metrics.needlessConfirmations++;
              const answer = policy({ id: a.id, kind: a.kind, title: a.title, options: (a.options as { id: string; label: string }[] | null) ?? [] });
              if (!answer) continue;
              const r = await gql(t.url, t.a.ownerToken, Resolve, {
                input: { approvalId: toGlobalId('Approval', a.id), decision: answer.decision, idempotencyKey: key('res'), choice: answer.choice, note: answer.note },
              });
              if (r.errors?.length) throw new Error(`resolveApproval: ${r.errors[0]!.message}`);
            }
            return null;
          }
          const busy =
            (await prisma.turn.count({ where: { taskId, status: { in: ['QUEUED', 'RUNNING'] } } })) +
            (await prisma.generationJob.count({ where: { taskId, status: { in: [...LIVE_JOB] } } }));
          if (busy > 0 || pending.length > 0) {
            stuckSince = null;
          } else {
            stuckSince ??= Date.now();
            if (Date.now() - stuckSince > 1500) {
              // Nothing runs, nobody is asked, and the task is not done: a person would type "continue".
              metrics.continues++;
              if (metrics.continues > 5) throw new Error(`task ${taskId} is stuck (${task.status}: ${task.statusReason})`);
              if (task.status === 'PAUSED') await ctx.signal(taskId, 'RESUME');
              else await ctx.say('continue', { taskId }, { taskId });
              stuckSince = null;
            }
          }
          return null;
        };
        // Long enough for the slowest recovery at default timings: a missing final callback is
        // polled after 3 watchdog periods of silence (30 s), an unknown submission at the next tick.
        return waitFor(look, `task ${taskId} to settle`, { timeoutMs: 240_000, intervalMs: 50 }).catch(async (e: Error) => {
          throw new Error(`${e.message} (now ${await ctx.status(taskId)})`, { cause: e });
        });
      },
      async signal(taskId, signal, text) {
        const r = await gql(t.url, t.a.ownerToken, Signal, { input: { taskId: toGlobalId('Task', taskId), signal, text, idempotencyKey: key('sig') } });
        if (r.errors?.length) throw new Error(`signalTask: ${r.errors[0]!.message}`);
      },
      async status(taskId) {
        return (await prisma.task.findUniqueOrThrow({ where: { id: taskId } })).status;
      },
    };
    const value = await fn(ctx);
    // Every order ends (recovered from its faults) before the books are checked.
    await waitFor(async () => (await prisma.generationJob.count({ where: { workspaceId: t.a.workspaceId, status: { in: [...LIVE_JOB] } } })) === 0, 'every generation job to end', { timeoutMs: 120_000, intervalMs: 100 });
    const s = await scoreWorkspace(prisma, t.a.workspaceId);
    Object.assign(metrics, { jobs: s.jobs, duplicateGenerations: s.duplicateGenerations, costCents: s.costCents, staleReads: s.staleReads, forkedCopies: s.forkedCopies, lostWakeups: s.lostWakeups });
    if (s.ledger.length) throw new Error(`the ledger does not balance: ${s.ledger.slice(0, 5).join('; ')}`);
    // The faults the provider drew for this run's jobs (the engine keeps them on each job).
    const engine = (provider as unknown as { engine: SimulationEngine }).engine;
    for (const job of (engine as unknown as { jobs: Map<string, SimJob> }).jobs.values()) {
      if (job.fails) faults.failed++;
      if (job.plan.some((c) => c.skip)) faults.missingCallback++;
      faults.duplicateCallback += job.plan.filter((c) => c.duplicate).length;
      faults.lateCallback += job.plan.filter((c) => c.late).length;
    }
    return { value, metrics, faults };
  } finally {
    await worker?.stop().catch(() => {});
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function fromGlobal(id: string): string {
  return Buffer.from(id, 'base64').toString('utf8').split(':').slice(1).join(':');
}

type Prisma = TestApp['app']['deps']['prisma'];

export type WorkspaceScore = {
  jobs: number;
  duplicateGenerations: number;
  costCents: number;
  staleReads: number;
  forkedCopies: number;
  lostWakeups: number;
  /** What does not balance in the ledger (empty when every hold is settled once, by its job's end). */
  ledger: string[];
};

/**
 * Scores what the database says happened (not what the scenario believes). Exported so the metric
 * checks (metric-checks.ts) can run it against planted faults.
 */
export async function scoreWorkspace(prisma: Prisma, workspaceId: string, now = new Date()): Promise<WorkspaceScore> {
  const jobs = await prisma.generationJob.findMany({ where: { workspaceId } });
  const taskIds = (await prisma.task.findMany({ where: { workspaceId }, select: { id: true } })).map((x) => x.id);

  // Duplicate generations: more results ordered for a step in one round than the step asked for
  // (a failed order does not count: ordering it again is the recovery). Jobs outside a checklist:
  // the same prompt of the same kind ordered again in one task.
  const counts = new Map<string, number>();
  for (const taskId of taskIds) {
    const rows = await prisma.taskChecklist.findMany({ where: { taskId }, orderBy: { version: 'asc' }, select: { items: true } });
    for (const r of rows) for (const i of (r.items ?? []) as { id: string; count?: number }[]) counts.set(`${taskId}|${i.id}`, i.count ?? 1);
  }
  const groups = new Map<string, { n: number; want: number }>();
  for (const j of jobs) {
    if (j.status === 'FAILED') continue;
    const p = (j.params ?? {}) as { checklistItemId?: string; checklistRound?: number };
    const k = p.checklistItemId ? `${j.taskId}|${p.checklistItemId}|${p.checklistRound ?? 0}` : `${j.taskId}|${j.kind}|${j.prompt}`;
    const want = p.checklistItemId ? (counts.get(`${j.taskId}|${p.checklistItemId}`) ?? 1) : 1;
    const g = groups.get(k) ?? { n: 0, want };
    g.n++;
    groups.set(k, g);
  }
  const duplicateGenerations = [...groups.values()].reduce((n, g) => n + Math.max(0, g.n - g.want), 0);

  const charged = await prisma.ledgerEntry.aggregate({ where: { workspaceId, kind: 'CHARGE' }, _sum: { amountCents: true } });

  // Stale reads: a write refused because it was based on an old version (CONFLICT), i.e. the agent
  // acted on a version it had read before someone else changed the object.
  const calls = await prisma.toolCall.findMany({ where: { taskId: { in: taskIds } }, select: { result: true, error: true } });
  const staleReads = calls.filter((c) => {
    const r = c.result as { ok?: boolean; error?: { code?: string } } | null;
    return (r?.ok === false && r.error?.code === 'CONFLICT') || /\bCONFLICT\b/.test(c.error ?? '');
  }).length;

  // Forked copies: several live documents, flows or collections of one name in a workspace — one
  // piece of work copied instead of edited.
  const forks = await prisma.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT COALESCE(SUM(c - 1), 0)::bigint AS n FROM (
       SELECT count(*) AS c FROM workspace_objects WHERE workspace_id = $1::uuid AND deleted_at IS NULL AND kind IN ('DOCUMENT', 'FLOW', 'COLLECTION')
        GROUP BY kind, name) g`,
    workspaceId,
  );

  // Lost wake-ups: a turn that waited longer than LOST_WAKEUP_MS for a worker (its wake-up was lost
  // and the watchdog had to re-send it), or that is still waiting that long.
  const turns = await prisma.turn.findMany({ where: { workspaceId }, select: { createdAt: true, startedAt: true, endedAt: true, status: true } });
  const lostWakeups = turns.filter((x) => {
    const picked = x.startedAt ?? (x.status === 'QUEUED' ? now : x.endedAt ?? now);
    return picked.getTime() - x.createdAt.getTime() > LOST_WAKEUP_MS;
  }).length;

  // The ledger: every ended job's hold settled exactly once — charged if it succeeded, released
  // otherwise — and nothing still held.
  const entries = await prisma.ledgerEntry.findMany({ where: { workspaceId } });
  const byJob = new Map<string, typeof entries>();
  for (const e of entries) byJob.set(e.jobId, [...(byJob.get(e.jobId) ?? []), e]);
  const ledger: string[] = [];
  for (const j of jobs) {
    const es = byJob.get(j.id) ?? [];
    const hold = es.filter((e) => e.kind === 'HOLD');
    const settled = es.filter((e) => e.kind !== 'HOLD');
    if (hold.length > 1) ledger.push(`job ${j.id}: ${hold.length} holds`);
    if (!hold.length) {
      if (settled.length) ledger.push(`job ${j.id}: settled without a hold`);
      continue;
    }
    if ((LIVE_JOB as readonly string[]).includes(j.status)) {
      ledger.push(`job ${j.id}: still ${j.status} with money on hold`);
      continue;
    }
    if (settled.length !== 1) {
      ledger.push(`job ${j.id} (${j.status}): settled ${settled.length} times`);
      continue;
    }
    const want = j.status === 'SUCCEEDED' ? 'CHARGE' : 'RELEASE';
    if (settled[0]!.kind !== want) ledger.push(`job ${j.id} (${j.status}): ${settled[0]!.kind}, expected ${want}`);
    if (settled[0]!.amountCents !== hold[0]!.amountCents) ledger.push(`job ${j.id}: held ${hold[0]!.amountCents}, settled ${settled[0]!.amountCents}`);
  }
  for (const [jobId] of byJob) if (!jobs.some((j) => j.id === jobId)) ledger.push(`ledger entries for unknown job ${jobId}`);

  return {
    jobs: jobs.length,
    duplicateGenerations,
    costCents: charged._sum.amountCents ?? 0,
    staleReads,
    forkedCopies: Number(forks[0]!.n),
    lostWakeups,
    ledger,
  };
}
