// Trying a different direction from a step, played by the scripted user: a poster series runs to
// the end, the person forks it from step 3 ("warmer"), the fork runs to the end, and a fresh task
// with the same request plus the warmer direction runs too. The fork's cost is printed against the
// fresh run's. The scenario fails (so the run exits 1) when the fork orders anything for a step
// before step 3 again, when the original changed in any way, or when the fork is not cheaper than
// the fresh run. Outcomes are read from the database, never from the words the offline model writes.
import assert from 'node:assert/strict';
import { readChecklist } from '../../server/store/checklist/write-checklist.ts';
import { graphql } from '../gql/index.ts';
import { gql, toGlobalId } from '../helpers/clients.ts';
import { person, type Scenario, type ScenarioContext } from './harness.ts';

/** A poster series, and the direction the person tries from its first poster (step 3) on. */
export const SERIES_THEN_FORK: readonly { text: string; posters: number; direction: string }[] = [
  { text: 'a few vintage posters for a coffee roaster', posters: 3, direction: 'warmer' },
  { text: 'make three retro posters for a coffee brand', posters: 3, direction: 'warmer' },
  { text: 'design five retro posters for a roastery', posters: 5, direction: 'warmer' },
];

const Fork = graphql(`
  mutation ScenarioFork($input: ForkTaskInput!) {
    forkTask(input: $input) { task { id forkedFrom { step seq } } }
  }
`);
const Create = graphql(`
  mutation ScenarioForkFresh($input: CreateTaskInput!) {
    createTask(input: $input) { task { id } }
  }
`);
const Cost = graphql(`
  query ScenarioForkCost($id: ID!) {
    task(id: $id) { cost { totalCents generationCents modelCents } }
  }
`);

const rawId = (gid: string) => Buffer.from(gid, 'base64').toString('utf8').split(':').slice(1).join(':');

/** Everything about a task a fork must not change. */
async function snapshot(ctx: ScenarioContext, taskId: string): Promise<string> {
  const prisma = ctx.t.app.deps.prisma;
  const task = await prisma.task.findUniqueOrThrow({ where: { id: taskId } });
  const [events, ledger, jobs, checklists, refs, approvals] = await Promise.all([
    prisma.taskEvent.findMany({ where: { taskId }, orderBy: { seq: 'asc' }, select: { seq: true, type: true, payloadHash: true, occurredAt: true } }),
    prisma.ledgerEntry.findMany({ where: { taskId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    prisma.generationJob.findMany({ where: { taskId }, orderBy: { createdAt: 'asc' }, select: { id: true, status: true } }),
    prisma.taskChecklist.count({ where: { taskId } }),
    prisma.taskObjectRef.count({ where: { taskId } }),
    prisma.approval.findMany({ where: { taskId }, select: { id: true, status: true } }),
  ]);
  return JSON.stringify({ task, events, ledger, jobs, checklists, refs, approvals });
}

async function costOf(ctx: ScenarioContext, taskId: string): Promise<number> {
  const r = await gql(ctx.t.url, ctx.t.a.ownerToken, Cost, { id: toGlobalId('Task', taskId) });
  if (r.errors?.length) throw new Error(`cost: ${r.errors[0]!.message}`);
  return r.data!.task!.cost.totalCents;
}

export const FORK_SCENARIOS: Scenario[] = [
  {
    name: 'try a warmer direction from step 3',
    async run(ctx) {
      const prisma = ctx.t.app.deps.prisma;
      const req = ctx.pick(SERIES_THEN_FORK);
      const original = await ctx.say(req.text, 'new');
      assert.ok(original, 'a task was created');
      assert.equal(await ctx.settle(original, person(), { expectCards: { PLAN: 1, CHECKPOINT: 1 } }), 'COMPLETED');
      const plan = (await readChecklist(prisma, original))!;
      const before = plan.items.slice(0, 2);
      assert.ok(plan.items[2]?.kind === 'IMAGE', `step 3 is the first poster: ${plan.items.map((i) => i.title).join(', ')}`);
      const untouched = await snapshot(ctx, original);

      // The person tries a warmer direction from step 3.
      const r = await gql(ctx.t.url, ctx.t.a.ownerToken, Fork, { input: { taskId: toGlobalId('Task', original), atStep: 3, edit: req.direction, idempotencyKey: `fork-${original}` } });
      if (r.errors?.length) throw new Error(`forkTask: ${r.errors[0]!.message}`);
      const fork = rawId(r.data!.forkTask.task.id);
      assert.equal(await ctx.settle(fork, person(), { expectCards: {} }), 'COMPLETED');

      // The invariants: nothing before step 3 ordered again; the shared steps are the original's.
      const forkJobs = await prisma.generationJob.findMany({ where: { taskId: fork } });
      const again = forkJobs.filter((j) => before.some((i) => i.id === (j.params as { checklistItemId?: string }).checklistItemId));
      assert.deepEqual(again.map((j) => j.prompt), [], 'the fork ordered nothing for the steps before step 3');
      const forked = (await readChecklist(prisma, fork))!;
      assert.deepEqual(forked.items.slice(0, 2).map((i) => i.artifacts), before.map((i) => i.artifacts), 'steps 1–2 are the original’s results');
      assert.ok(forked.items.slice(2).every((i) => i.status === 'DONE' && i.artifacts.length === i.count), 'the fork made every step from step 3 on');
      assert.ok(forkJobs.every((j) => j.prompt.includes(req.direction)), 'in the warmer direction');
      assert.equal(await snapshot(ctx, original), untouched, 'the original did not change');

      // The same request with the warmer direction, from scratch.
      const c = await gql(ctx.t.url, ctx.t.a.ownerToken, Create, {
        input: { workspaceId: toGlobalId('Workspace', ctx.t.a.workspaceId), title: req.text, goal: `${req.text}, ${req.direction}`, idempotencyKey: `fresh-${original}` },
      });
      if (c.errors?.length) throw new Error(`createTask: ${c.errors[0]!.message}`);
      const fresh = rawId(c.data!.createTask.task.id);
      assert.equal(await ctx.settle(fresh, person(), { expectCards: { PLAN: 1, CHECKPOINT: 1 } }), 'COMPLETED');

      const forkCents = await costOf(ctx, fork);
      const freshCents = await costOf(ctx, fresh);
      const freshOrders = await prisma.generationJob.count({ where: { taskId: fresh, status: 'SUCCEEDED' } });
      assert.ok(forkCents < freshCents, `the fork (${forkCents}¢) is cheaper than the fresh run (${freshCents}¢)`);
      return {
        prompt: req.text,
        forkCents: Number(forkCents.toFixed(2)),
        freshCents: Number(freshCents.toFixed(2)),
        ratio: Number((forkCents / freshCents).toFixed(2)),
        forkResults: forkJobs.filter((j) => j.status === 'SUCCEEDED').length,
        freshResults: freshOrders,
        sharedSteps: before.length,
      };
    },
  },
];
