// Metrics that can fail: every scenario metric is run once against a planted fault — the broken
// guarantee it exists to catch — and must report it. A metric that stays at 0 here is blind, and a
// run whose metrics are blind proves nothing (`npm run scenarios` exits 1). Where the same run has a
// clean counterpart (a write with the right version, a failed order retried, a message sent to its
// task), that part must not count.
import { randomUUID } from 'node:crypto';
import type { Viewer } from '../../server/auth/viewer.ts';
import { ScriptedChatModel } from '../../server/runtime/models/scripted-model.ts';
import { createModelProvider } from '../../server/runtime/models/provider.ts';
import type { ModelProvider } from '../../server/runtime/models/types.ts';
import { createObject, updateObject } from '../../server/services/objects/write-object.ts';
import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { scoreWorkspace, withScenario, type CardPolicy, type Metrics, type ScenarioContext } from './harness.ts';

export type MetricCheck = {
  metric: keyof Metrics;
  /** The broken guarantee that is planted. */
  fault: string;
  run(): Promise<{ value: number; control?: number; note?: string }>;
};

const approveAll: CardPolicy = () => ({ decision: 'APPROVE' });

const viewerOf = (ctx: ScenarioContext): Viewer => ({
  userId: ctx.t.a.ownerId,
  credentialId: 'metric-check',
  scopes: new Set(['READ', 'WRITE']),
  memberships: new Map([[ctx.t.a.workspaceId, 'OWNER']]),
});

export const METRIC_CHECKS: MetricCheck[] = [
  {
    metric: 'continues',
    fault: 'a task left waiting on nothing (no turn, no job, no card) mid-run',
    async run() {
      const { metrics } = await withScenario('chk_cont', async (ctx) => {
        const prisma = ctx.t.app.deps.prisma;
        const task = await prisma.task.create({ data: { workspaceId: ctx.t.a.workspaceId, createdById: ctx.t.a.ownerId, title: 'Lighthouse', goal: 'paint a lighthouse at dusk', status: 'WAITING' } });
        await ctx.settle(task.id, approveAll, { until: async () => ctx.metrics.continues >= 1 });
      });
      return { value: metrics.continues };
    },
  },
  {
    metric: 'needlessConfirmations',
    fault: 'an extra confirmation card on a single image that needs none',
    async run() {
      const { metrics } = await withScenario('chk_conf', async (ctx) => {
        const prisma = ctx.t.app.deps.prisma;
        const task = await ctx.say('paint a lighthouse at dusk', 'new');
        if (!task) throw new Error('no task');
        await prisma.approval.create({
          data: {
            workspaceId: ctx.t.a.workspaceId,
            taskId: task,
            kind: 'CHECKPOINT',
            title: 'Shall I go on?',
            reasons: [],
            action: { type: 'CHECKPOINT', kind: 'CONFIRM', itemId: null },
            requestKey: `planted-${randomUUID()}`,
            requestedByKind: 'AGENT',
          },
        });
        // The planted card is left unanswered (answering it would resume nothing real).
        await ctx.settle(task, () => null, { expectCards: {}, until: async () => ctx.metrics.needlessConfirmations >= 1 });
      });
      return { value: metrics.needlessConfirmations };
    },
  },
  {
    metric: 'duplicateGenerations',
    fault: 'a second successful order for a step that asked for one result (and, as control, a failed order ordered again)',
    async run() {
      let control = -1;
      const { metrics } = await withScenario('chk_dup', async (ctx) => {
        const prisma = ctx.t.app.deps.prisma;
        const task = await ctx.say('paint a lighthouse at dusk', 'new');
        if (!task) throw new Error('no task');
        if ((await ctx.settle(task, approveAll, { expectCards: {} })) !== 'COMPLETED') throw new Error('the image task did not complete');
        const job = await prisma.generationJob.findFirstOrThrow({ where: { taskId: task, status: 'SUCCEEDED' } });
        const copy = (status: 'FAILED' | 'SUCCEEDED') => {
          const { id: _id, idempotencyKey: _k, upstreamJobId: _u, createdAt: _c, updatedAt: _up, ...rest } = job;
          return prisma.generationJob.create({ data: { ...rest, params: rest.params ?? {}, result: rest.result ?? undefined, id: randomUUID(), idempotencyKey: `planted-${randomUUID()}`, status } as never });
        };
        await copy('FAILED'); // a failed order: ordering again is the recovery, not a duplicate
        control = (await scoreWorkspace(prisma, ctx.t.a.workspaceId)).duplicateGenerations;
        await copy('SUCCEEDED'); // the planted duplicate
      });
      return { value: metrics.duplicateGenerations, control };
    },
  },
  {
    metric: 'misrouted',
    fault: "a message meant for the fox task that the router starts as new work (and, as control, one sent to the task)",
    async run() {
      let control = -1;
      const { metrics } = await withScenario('chk_route', async (ctx) => {
        const fox = await ctx.say('paint a red fox in the snow', 'new');
        if (!fox) throw new Error('no task');
        await ctx.say('make the fox a little larger', { taskId: fox }, { taskId: fox });
        control = ctx.metrics.misrouted;
        // The person means the fox task; the words say new work, so the router starts a new task.
        await ctx.say('compose a jingle for a bakery', { taskId: fox });
        await ctx.settle(fox, approveAll, { expectCards: {} });
      });
      return { value: metrics.misrouted, control };
    },
  },
  {
    metric: 'staleReads',
    fault: 'an agent write through the baseVersion it read before a person saved a newer version (and, as control, the write after re-reading)',
    async run() {
      let docId = '';
      let personSaves: () => Promise<void> = async () => {};
      const result = (messages: BaseMessage[]) => {
        const m = [...messages].reverse().find((x) => x instanceof ToolMessage);
        return m ? (JSON.parse(String(m.content)) as { result?: { version?: number } }).result : undefined;
      };
      const script = new ScriptedChatModel(async ({ messages }) => {
        const tools = messages.filter((m) => m instanceof ToolMessage).length;
        switch (tools) {
          case 0:
            return { content: 'reading the storyboard', toolCalls: [{ name: 'read_object', args: { objectId: docId } }] };
          case 1: {
            const read = result(messages)!.version!;
            await personSaves(); // a person saves a newer version meanwhile
            return { content: 'writing', toolCalls: [{ name: 'write_object', args: { objectId: docId, baseVersion: read, content: { markdown: '# Storyboard\nagent: at dawn\n' } } }] };
          }
          case 2:
            return { content: 're-reading', toolCalls: [{ name: 'read_object', args: { objectId: docId } }] };
          case 3:
            return { content: 'writing on the current version', toolCalls: [{ name: 'write_object', args: { objectId: docId, baseVersion: result(messages)!.version!, content: { markdown: '# Storyboard\nperson: fog\nagent: at dawn\n' } } }] };
          default:
            return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: 'storyboard updated' } }] };
        }
      });
      const offline = createModelProvider({});
      const models: ModelProvider = { info: offline.info, chat: (role) => (role === 'worker' ? script : offline.chat(role)) };
      const { metrics } = await withScenario(
        'chk_stale',
        async (ctx) => {
          const v = viewerOf(ctx);
          const doc = await createObject(ctx.t.app.deps, v, { workspaceId: ctx.t.a.workspaceId, kind: 'DOCUMENT', name: 'Storyboard — launch', content: { markdown: '# Storyboard\n' } });
          docId = doc.object.id;
          personSaves = async () => {
            await updateObject(ctx.t.app.deps, v, { objectId: docId, baseVersion: 1, content: { markdown: '# Storyboard\nperson: fog\n' } });
            personSaves = async () => {};
          };
          const task = await ctx.say('update the launch storyboard with the new ending', 'new');
          if (!task) throw new Error('no task');
          await ctx.settle(task, approveAll, { expectCards: {} });
        },
        { models },
      );
      return { value: metrics.staleReads, note: 'the write after re-reading is not counted' };
    },
  },
  {
    metric: 'forkedCopies',
    fault: 'a second writer creating its own "Storyboard — launch" instead of editing the first (and, as control, a brief of another name)',
    async run() {
      let control = -1;
      const { metrics } = await withScenario('chk_fork', async (ctx) => {
        const v = viewerOf(ctx);
        const prisma = ctx.t.app.deps.prisma;
        await createObject(ctx.t.app.deps, v, { workspaceId: ctx.t.a.workspaceId, kind: 'DOCUMENT', name: 'Storyboard — launch', content: { markdown: '# Storyboard\n' } });
        await createObject(ctx.t.app.deps, v, { workspaceId: ctx.t.a.workspaceId, kind: 'DOCUMENT', name: 'Brief — launch', content: { markdown: '# Brief\n' } });
        control = (await scoreWorkspace(prisma, ctx.t.a.workspaceId)).forkedCopies;
        await createObject(ctx.t.app.deps, v, { workspaceId: ctx.t.a.workspaceId, kind: 'DOCUMENT', name: 'Storyboard — launch', content: { markdown: '# Storyboard (copy)\n' } });
      });
      return { value: metrics.forkedCopies, control };
    },
  },
  {
    metric: 'lostWakeups',
    fault: "a task's wake-up deleted from the queue before any worker took it (repaired by the watchdog at its default timings)",
    async run() {
      let note = '';
      const { metrics } = await withScenario(
        'chk_wake',
        async (ctx) => {
          const prisma = ctx.t.app.deps.prisma;
          const task = await ctx.say('paint a lighthouse at dusk', 'new');
          if (!task) throw new Error('no task');
          const turn = await prisma.turn.findFirstOrThrow({ where: { taskId: task, status: 'QUEUED' } });
          const deleted = await prisma.$executeRawUnsafe(`DELETE FROM pgboss.job WHERE data->>'turnId' = $1`, turn.id);
          if (deleted < 1) throw new Error('no wake-up job to delete');
          const started = Date.now();
          await ctx.startWorker();
          if ((await ctx.settle(task, approveAll, { expectCards: {} })) !== 'COMPLETED') throw new Error('the task did not complete after its wake-up was lost');
          const ran = await prisma.turn.findUniqueOrThrow({ where: { id: turn.id } });
          if (!ran.startedAt) throw new Error('the turn never ran');
          note = `the watchdog re-sent it: the turn waited ${((ran.startedAt.getTime() - ran.createdAt.getTime()) / 1000).toFixed(0)} s; the task completed ${((Date.now() - started) / 1000).toFixed(0)} s after the worker started`;
        },
        { startWorker: false },
      );
      return { value: metrics.lostWakeups, note };
    },
  },
];
