// The scenario set (issue 6): each plays a creative flow end to end with a scripted user and
// returns what it checks besides the shared metrics. A scenario throws when the product misbehaves
// (wrong final state, a revived task, a missing delivery); the metrics say how it felt.
import assert from 'node:assert/strict';
import { readChecklist } from '../../server/services/checklist/write-checklist.ts';
import type { CardPolicy, ScenarioContext } from './harness.ts';

/** What a reasonable person does with each card. */
const person =
  (pick = 'c2'): CardPolicy =>
  (card) => {
    if (card.kind === 'CHECKPOINT' && card.options.length) return { decision: 'APPROVE', choice: card.options.find((o) => o.id === pick)?.id ?? card.options[0]!.id };
    return { decision: 'APPROVE' };
  };

async function checklistDone(ctx: ScenarioContext, taskId: string) {
  const c = await readChecklist(ctx.t.app.deps.prisma, taskId);
  assert.ok(c && c.items.length > 0, 'the task has a checklist');
  assert.ok(c.items.every((i) => i.status === 'DONE' || i.status === 'SKIPPED'), `every step finished: ${c.items.map((i) => `${i.title}=${i.status}`).join(', ')}`);
  return c;
}

export type Scenario = { name: string; run(ctx: ScenarioContext): Promise<Record<string, string | number>> };

export const SCENARIOS: Scenario[] = [
  {
    name: 'poster series: plan approval, pick among candidates, delivery',
    async run(ctx) {
      const task = await ctx.say('make three retro posters for a coffee brand', 'new');
      assert.ok(task, 'a task was created');
      const status = await ctx.settle(task, person('c2'), { expectCards: { PLAN: 1, CHECKPOINT: 1 } });
      assert.equal(status, 'COMPLETED');
      const c = await checklistDone(ctx, task);
      const posters = c.items.filter((i) => /^Poster/.test(i.title));
      assert.equal(posters.length, 3);
      assert.ok(posters.every((p) => p.artifacts.length === 1), 'each poster has its picture');
      const summary = (await ctx.t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task } })).summary;
      assert.match(summary, /Poster 3: (job|object):/, 'the delivery cites the results');
      const prompts = await ctx.t.app.deps.prisma.generationJob.findMany({ where: { taskId: task, prompt: { contains: 'Poster' } } });
      assert.ok(prompts.every((j) => j.prompt.includes('Candidate 2')), 'every poster follows the picked candidate');
      return { steps: c.items.length, images: await ctx.t.app.deps.prisma.generationJob.count({ where: { taskId: task } }) };
    },
  },
  {
    name: 'short video: storyboard, shots, a change of direction mid-run',
    async run(ctx) {
      const task = await ctx.say('make a short video about a lighthouse keeper, with a storyboard', 'new');
      assert.ok(task);
      const prisma = ctx.t.app.deps.prisma;
      // Let it run until the first shots are being generated, then change direction.
      await ctx.settle(task, person(), { expectCards: { PLAN: 1, CHECKPOINT: 1 }, until: async () => (await prisma.generationJob.count({ where: { taskId: task, kind: 'VIDEO' } })) >= 3 });
      await ctx.signal(task, 'REVISE', 'make it at night instead, with rain');
      const status = await ctx.settle(task, person(), { expectCards: { PLAN: 2, CHECKPOINT: 1 } });
      assert.equal(status, 'COMPLETED');
      const c = await checklistDone(ctx, task);
      const shots = c.items.filter((i) => /^Shot/.test(i.title));
      assert.ok(shots.every((s) => s.round >= 1), `every shot was re-opened: ${JSON.stringify(c.items.map((i) => [i.title, i.status, i.round, i.ordered, i.artifacts.length]))} ${JSON.stringify((await prisma.step.findMany({ where: { taskId: task }, orderBy: { createdAt: 'asc' } })).map((s) => (s.decision as { content: string }).content))} ${JSON.stringify((await prisma.inboxItem.findMany({ where: { taskId: task } })).map((i) => [i.signal, i.text?.slice(0, 30), !!i.consumedAt]))}`);
      const night = await prisma.generationJob.findMany({ where: { taskId: task, kind: 'VIDEO', prompt: { contains: 'at night' } } });
      assert.equal(night.length, 3, 'the shots were made again in the new direction');
      const linked = new Set(shots.flatMap((s) => s.artifacts));
      const nightRefs = new Set(night.flatMap((j) => [`job:${j.id}`]));
      assert.ok([...linked].every((a) => nightRefs.has(a) || a.startsWith('object:')), 'only results of the new direction are linked to the shots');
      return { shots: shots.length, videoJobs: await prisma.generationJob.count({ where: { taskId: task, kind: 'VIDEO' } }) };
    },
  },
  {
    name: 'two tasks interleaved in the main thread',
    async run(ctx) {
      const fox = await ctx.say('make an image of a red fox in the snow', 'new');
      const jingle = await ctx.say('compose a short jingle for a bakery', 'new');
      assert.ok(fox && jingle && fox !== jingle);
      const [a, b] = await Promise.all([ctx.settle(fox, person(), { expectCards: {} }), ctx.settle(jingle, person(), { expectCards: {} })]);
      assert.equal(a, 'COMPLETED');
      assert.equal(b, 'COMPLETED');
      return { tasks: 2 };
    },
  },
  {
    name: 'resuming a task from last week',
    async run(ctx) {
      const prisma = ctx.t.app.deps.prisma;
      const task = await ctx.say('make four retro posters for a tea shop', 'new');
      assert.ok(task);
      // Last week: the plan was approved, then the user paused the work and left.
      await ctx.settle(task, person(), { expectCards: { PLAN: 1 }, until: async () => (await prisma.approval.count({ where: { taskId: task, kind: 'PLAN', status: 'APPROVED' } })) > 0 });
      await ctx.signal(task, 'PAUSE');
      await waitFor(async () => (await prisma.turn.count({ where: { taskId: task, status: { in: ['QUEUED', 'RUNNING'] } } })) === 0 && (await prisma.generationJob.count({ where: { taskId: task, status: { in: ['SUBMITTING', 'QUEUED', 'RUNNING'] } } })) === 0);
      const weekAgo = new Date(Date.now() - 8 * 24 * 3600_000);
      await prisma.task.update({ where: { id: task }, data: { lastActivityAt: weekAgo, createdAt: weekAgo } });
      // This week: one sentence, and the work goes on where it stopped.
      const again = await ctx.say("let's finish the tea shop posters", { taskId: task });
      assert.equal(again, task, 'routed to the paused task');
      const status = await ctx.settle(task, person('c1'), { expectCards: { PLAN: 1, CHECKPOINT: 1 } });
      assert.equal(status, 'COMPLETED');
      await checklistDone(ctx, task);
      return { pausedDays: 8 };
    },
  },
  {
    name: 'a cat image turned into a video',
    async run(ctx) {
      const task = await ctx.say('turn a picture of my cat into a short video', 'new');
      assert.ok(task);
      const status = await ctx.settle(task, person(), { expectCards: { PLAN: 1 } });
      assert.equal(status, 'COMPLETED');
      const c = await checklistDone(ctx, task);
      const video = await ctx.t.app.deps.prisma.generationJob.findFirstOrThrow({ where: { taskId: task, kind: 'VIDEO' } });
      const image = c.items.find((i) => i.kind === 'IMAGE')!;
      assert.deepEqual({ ref: (video.params as { referenceId?: string }).referenceId }, { ref: image.artifacts[0] }, 'the video starts from the cat image');
      return { steps: c.items.length };
    },
  },
  {
    name: 'a stop while a generation is running',
    async run(ctx) {
      const prisma = ctx.t.app.deps.prisma;
      const task = await ctx.say('make a 3D model of a vintage radio', 'new');
      assert.ok(task);
      await ctx.settle(task, person(), { expectCards: {}, until: async () => (await prisma.generationJob.count({ where: { taskId: task, status: { in: ['QUEUED', 'RUNNING'] } } })) > 0 });
      await ctx.signal(task, 'CANCEL');
      // The job ends at the provider anyway: it is recorded and settled, the task is not revived.
      // The job's final state and the (non-)wake commit in one transaction: once it is final, the
      // decision not to revive the task has been taken.
      await waitFor(async () => (await prisma.generationJob.count({ where: { taskId: task, status: { in: ['SUCCEEDED', 'FAILED', 'CANCELLED'] } } })) > 0);
      assert.equal(await ctx.status(task), 'CANCELLED');
      assert.equal(await prisma.turn.count({ where: { taskId: task, status: { in: ['QUEUED', 'RUNNING'] } } }), 0, 'no turn after the stop');
      const ledger = await prisma.ledgerEntry.findMany({ where: { taskId: task } });
      assert.equal(ledger.filter((l) => l.kind === 'HOLD').length, 1);
      assert.equal(ledger.filter((l) => l.kind !== 'HOLD').length, 1, 'the hold is settled once');
      return { settled: ledger.map((l) => l.kind).sort().join('+') };
    },
  },
];

async function waitFor(cond: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}
