// Scenario runs (seed §11.2): a scripted user talks to the real product — GraphQL over HTTP, the
// router, the durable runtime with a worker, the simulated provider — and is scored on what a
// person would feel: "continue" messages they had to send, needless confirmations, duplicate
// generations, misrouted messages, stale object reads, forked copies of one work, and total cost.
// The model is the offline model (explicit rules) unless a model is configured.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimulatedProvider } from '../../server/generation/simulated.ts';
import type { ModelProvider } from '../../server/runtime/models/types.ts';
import type { WorkerHandle } from '../../server/runtime/worker.ts';
import { graphql } from '../gql/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { gql, toGlobalId } from '../helpers/clients.ts';

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
  costCents: number;
  cards: number;
  messages: number;
  jobs: number;
};

export type CardPolicy = (card: { id: string; kind: string; title: string; options: { id: string; label: string }[] }) =>
  | { decision: 'APPROVE' | 'REJECT'; choice?: string; note?: string }
  | null;

export type ScenarioContext = {
  t: TestApp;
  metrics: Metrics;
  /** Sends a message in the main thread; `expect` is where a person would say it belongs. */
  say(text: string, expect: 'new' | { taskId: string } | 'answer' | 'any', opts?: { taskId?: string }): Promise<string | null>;
  /** Drives the task until it ends (or `until` holds), answering cards with the policy. */
  settle(taskId: string, policy: CardPolicy, opts?: { until?: () => Promise<boolean>; expectCards?: Record<string, number> }): Promise<string>;
  signal(taskId: string, signal: 'PAUSE' | 'RESUME' | 'CANCEL' | 'REVISE' | 'ADD_CONTEXT', text?: string): Promise<void>;
  status(taskId: string): Promise<string>;
};

let keySeq = 0;
const key = (p: string) => `${p}-${Date.now()}-${++keySeq}`;

export async function withScenario<T>(label: string, fn: (ctx: ScenarioContext) => Promise<T>, opts: { models?: ModelProvider } = {}): Promise<{ value: T; metrics: Metrics }> {
  const dir = mkdtempSync(join(tmpdir(), `atelier-scn-${label}-`));
  const t = await startTestApp(`scn_${label}`, { runtime: { ...(await import('../helpers/app.ts')).testConfig().runtime, leaseMs: 5000, watchdogMs: 200, staleQueuedMs: 1000, workerConcurrency: 2 } }, {
    provider: new SimulatedProvider({ filesDir: dir, latencyMs: { IMAGE: 60, VIDEO: 120, AUDIO: 80, MODEL_3D: 120 } }),
    ...(opts.models ? { models: opts.models } : {}),
  });
  let worker: WorkerHandle | undefined;
  const metrics: Metrics = { continues: 0, needlessConfirmations: 0, duplicateGenerations: 0, misrouted: 0, staleReads: 0, forkedCopies: 0, costCents: 0, cards: 0, messages: 0, jobs: 0 };
  const prisma = t.app.deps.prisma;
  const ws = toGlobalId('Workspace', t.a.workspaceId);
  const handled = new Set<string>();
  try {
    worker = await t.app.startWorker({ concurrency: 2 });
    const ctx: ScenarioContext = {
      t,
      metrics,
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
        const deadline = Date.now() + 60_000;
        let stuckSince: number | null = null;
        for (;;) {
          if (Date.now() > deadline) throw new Error(`task ${taskId} did not settle: ${await ctx.status(taskId)}`);
          if (o.until && (await o.until())) return ctx.status(taskId);
          const task = await prisma.task.findUniqueOrThrow({ where: { id: taskId } });
          if (['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'].includes(task.status)) return task.status;
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
            continue;
          }
          const busy =
            (await prisma.turn.count({ where: { taskId, status: { in: ['QUEUED', 'RUNNING'] } } })) +
            (await prisma.generationJob.count({ where: { taskId, status: { in: ['SUBMITTING', 'QUEUED', 'RUNNING', 'UNKNOWN'] } } }));
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
          await new Promise((r) => setTimeout(r, 50));
        }
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
    await score(t, metrics);
    return { value, metrics };
  } finally {
    await worker?.stop().catch(() => {});
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function fromGlobal(id: string): string {
  return Buffer.from(id, 'base64').toString('utf8').split(':').slice(1).join(':');
}

/** Scores what the database says happened (not what the scenario believes). */
async function score(t: TestApp, m: Metrics): Promise<void> {
  const prisma = t.app.deps.prisma;
  const jobs = await prisma.generationJob.findMany({ where: { workspaceId: t.a.workspaceId } });
  m.jobs = jobs.length;
  const byPrompt = new Map<string, number>();
  for (const j of jobs) {
    const k = `${j.taskId}|${j.kind}|${j.prompt}`;
    byPrompt.set(k, (byPrompt.get(k) ?? 0) + 1);
  }
  m.duplicateGenerations = [...byPrompt.values()].reduce((n, c) => n + (c - 1), 0);
  const charged = await prisma.ledgerEntry.aggregate({ where: { workspaceId: t.a.workspaceId, kind: 'CHARGE' }, _sum: { amountCents: true } });
  m.costCents = charged._sum.amountCents ?? 0;
  // A write refused because it was based on an old version is a stale read the agent acted on.
  const taskIds = (await prisma.task.findMany({ where: { workspaceId: t.a.workspaceId }, select: { id: true } })).map((x) => x.id);
  const calls = await prisma.toolCall.findMany({ where: { taskId: { in: taskIds } }, select: { result: true, error: true } });
  m.staleReads = calls.filter((c) => /CONFLICT|stale|baseVersion/i.test(`${c.error ?? ''} ${JSON.stringify(c.result ?? '')}`)).length;
  // Forked copies: several live objects of one kind and name in a workspace (when objects exist).
  const hasObjects = await prisma.$queryRawUnsafe<{ n: bigint }[]>("SELECT count(*)::bigint AS n FROM information_schema.tables WHERE table_name = 'workspace_objects'");
  if (Number(hasObjects[0]!.n) > 0) {
    const forks = await prisma.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT COALESCE(SUM(c - 1), 0)::bigint AS n FROM (
         SELECT count(*) AS c FROM workspace_objects WHERE workspace_id = $1::uuid AND deleted_at IS NULL AND kind IN ('DOCUMENT', 'FLOW', 'COLLECTION')
          GROUP BY kind, name) g`,
      t.a.workspaceId,
    );
    m.forkedCopies = Number(forks[0]!.n);
  }
}
