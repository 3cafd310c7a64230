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
//
// The context types and run settings are in ./context.ts, the seeded randomness in ./seeds.ts and
// the scoring in ./score.ts; they are re-exported here for the scenario scripts and checks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimJob, SimulationEngine } from '../../server/generation/simulation.ts';
import { SimulatedProvider } from '../../server/generation/simulated.ts';
import { SubmissionOutcomeUnknown } from '../../server/generation/types.ts';
import type { WorkerHandle } from '../../server/runtime/worker.ts';
import { graphql } from '../gql/index.ts';
import { startTestApp, testConfig } from '../helpers/app.ts';
import { gql, toGlobalId } from '../helpers/clients.ts';
import { waitFor } from '../helpers/wait.ts';
import type { Faults, Metrics, ScenarioContext, ScenarioOptions } from './context.ts';
import { LIVE_JOB, scoreWorkspace } from './score.ts';
import { mixSeed, seededRandom } from './seeds.ts';

export { LOST_WAKEUP_MS, person, SCENARIO_FAULTS, type CardPolicy, type Faults, type Metrics, type Scenario, type ScenarioContext, type ScenarioOptions } from './context.ts';
export { scoreWorkspace, type WorkspaceScore } from './score.ts';
export { mixSeed, seededRandom } from './seeds.ts';

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

let keySeq = 0;
const key = (p: string) => `${p}-${Date.now()}-${++keySeq}`;

const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'];

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
