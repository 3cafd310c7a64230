// Forking a task from a step ("try a different direction from here"). Pure: where the fork point is
// in a log, the fork's checklist, and the "[forked from]" block as the offline model reads it.
// Running product (GraphQL, the scripted poster fixture, a worker, the simulated provider): a
// series forked at its pick while the original is mid-series, with a different pick — the fork
// shares the candidates (no new candidate orders, the same objects), orders only the new posters,
// and the original's row, log, checklist and ledger are unchanged by it; the fork's history is the
// original's up to the fork point and reads the same before and after the original moved on (over
// HTTP and over a subscription); forks of the finished series from the series step ("warmer": only
// three new posters) and from the pick with the original's own pick (the posters reused, no
// charge); typed errors that write nothing; idempotency; replay of a fork.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ChecklistItemSchema, type ChecklistItem } from '../server/domain/checklist.ts';
import { forkChecklist, forkPointSeq, forkRefusal, renderForkedFrom, type ForkLogEntry, type ForkRecord } from '../server/domain/forks.ts';
import { textsFor } from '../server/domain/replies/texts.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { parseForkedFrom } from '../server/runtime/models/offline/forks.ts';
import { offlineFlowReply } from '../server/runtime/models/offline/flow.ts';
import { HumanMessage } from '@langchain/core/messages';
import { replayTask } from '../server/runtime/replay.ts';
import { posterModel } from './fixtures/poster-plugin.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { collect, gql, gqlOk, toGlobalId, wsClient } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { waitFor } from './helpers/wait.ts';

// ---- pure --------------------------------------------------------------------------------------

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const obj = (n: number) => `object:${uuid(n)}`;
const item = (over: Partial<ChecklistItem> & { id: string }): ChecklistItem => ChecklistItemSchema.parse({ title: over.id, ...over });
const plan = (c: string, p: string, s: string, extra: Partial<Record<'c' | 'p' | 's', Partial<ChecklistItem>>> = {}) => [
  item({ id: 'candidates', kind: 'IMAGE', count: 3, status: c as ChecklistItem['status'], ...extra.c }),
  item({ id: 'pick', kind: 'CHECKPOINT', status: p as ChecklistItem['status'], ...extra.p }),
  item({ id: 'series', kind: 'IMAGE', count: 3, status: s as ChecklistItem['status'], ...extra.s }),
];

describe('forks (pure)', () => {
  const cand = { artifacts: [obj(1), obj(2), obj(3)] };
  const picked = { artifacts: [obj(2)] };
  const done = plan('DONE', 'DONE', 'DONE', { c: cand, p: picked, s: { artifacts: [obj(4), obj(5), obj(6)] } });
  // The log of a series: plan, candidates linked one by one, the pick, the series.
  const log: ForkLogEntry[] = [
    { seq: 1, type: 'TASK_CREATED' },
    { seq: 2, type: 'TURN_STARTED' },
    { seq: 3, type: 'STEP_DECIDED' },
    { seq: 4, type: 'CHECKLIST_UPDATED', items: plan('TODO', 'TODO', 'TODO') },
    { seq: 5, type: 'APPROVAL_REQUESTED' },
    { seq: 6, type: 'APPROVAL_RESOLVED' },
    { seq: 7, type: 'TURN_STARTED' },
    { seq: 8, type: 'STEP_DECIDED' },
    { seq: 9, type: 'CHECKLIST_UPDATED', items: plan('IN_PROGRESS', 'TODO', 'TODO', { c: { artifacts: [obj(1)] } }) },
    { seq: 10, type: 'CHECKLIST_UPDATED', items: plan('DONE', 'TODO', 'TODO', { c: cand }) },
    { seq: 11, type: 'JOB_SUCCEEDED' },
    { seq: 12, type: 'TURN_STARTED' },
    { seq: 13, type: 'STEP_DECIDED' },
    { seq: 14, type: 'APPROVAL_REQUESTED' },
    { seq: 15, type: 'APPROVAL_RESOLVED' },
    { seq: 16, type: 'TURN_STARTED' },
    { seq: 17, type: 'CHECKLIST_UPDATED', items: plan('DONE', 'DONE', 'TODO', { c: cand, p: picked }) },
    { seq: 18, type: 'TOOL_CALL_DONE' },
    { seq: 19, type: 'STEP_DECIDED' },
    { seq: 20, type: 'CHECKLIST_UPDATED', items: done },
  ];

  test('the fork point: just before the original started on the step, after what made the steps before it', () => {
    assert.equal(forkPointSeq(done, 1, log, 20), 6, 'step 1: after the plan and its card, before the turn that ordered candidates');
    assert.equal(forkPointSeq(done, 2, log, 20), 11, 'step 2: after the last candidate (and its job event), before the turn that asked');
    assert.equal(forkPointSeq(done, 3, log, 20), 18, 'step 3: after the pick was recorded, before the decision to order the series');
    // The original has not gone on since the steps before were settled: its last seq.
    assert.equal(forkPointSeq(plan('DONE', 'TODO', 'TODO', { c: cand }), 2, log.slice(0, 11), 11), 11);
    // Steps re-made later count in the state they are in now.
    const remade = plan('DONE', 'DONE', 'DONE', { c: { artifacts: [obj(7), obj(8), obj(9)] } });
    assert.equal(forkPointSeq(remade, 2, [...log, { seq: 21, type: 'CHECKLIST_UPDATED', items: remade }], 21), 21);
    assert.equal(forkPointSeq(done, 3, log.slice(0, 12), 12), null, 'never in that state: not reached');
  });

  test('refusals, and the fork checklist: earlier steps kept as they are, the rest open with the edit, a pick settled by a choice', () => {
    assert.deepEqual(forkRefusal(done, 0), { code: 'OUT_OF_RANGE' });
    assert.deepEqual(forkRefusal(done, 4), { code: 'OUT_OF_RANGE' });
    assert.equal(forkRefusal(done, 3), null);
    assert.equal(forkRefusal(plan('DONE', 'TODO', 'TODO'), 3)?.code, 'NOT_REACHED');
    const words = textsFor('en');
    const warmer = forkChecklist(done, 3, 'warmer', null, words);
    assert.deepEqual(warmer.slice(0, 2), done.slice(0, 2), 'the steps before the fork point are the original’s, results included');
    assert.deepEqual([warmer[2]!.status, warmer[2]!.artifacts, warmer[2]!.evidence], ['TODO', [], 're-opened: warmer']);
    const diner = forkChecklist(done, 2, 'the diner look', { stepId: 'pick', stepTitle: 'pick', optionId: 'diner', label: 'Diner neon', objectId: uuid(3) }, words);
    assert.deepEqual([diner[1]!.status, diner[1]!.artifacts, diner[1]!.evidence], ['DONE', [obj(3)], 'the user chose “Diner neon”']);
    assert.deepEqual([diner[2]!.status, diner[2]!.artifacts], ['TODO', []]);
  });

  test('the "[forked from]" block: stable, and the offline model reads its direction and picks back', () => {
    const fork: ForkRecord = {
      taskId: uuid(100),
      title: 'Coffee posters',
      goal: 'a few vintage posters for a coffee roaster',
      atStep: 3,
      stepId: 'poster-1',
      stepTitle: 'Poster 1',
      seq: 42,
      edit: 'warmer',
      choice: null,
      picks: [{ stepId: 'pick-a-direction', stepTitle: 'Pick a direction', optionId: 'c2', label: 'Candidate 2', objectId: uuid(2) }],
    };
    const text = renderForkedFrom(fork)!;
    assert.match(text, /^\[forked from\] This task is a fork of task 0{8}-0000-4000-8000-000000000100 \(“Coffee posters”/);
    assert.match(text, /Steps 1–2 are that task's work, finished, with their results/);
    assert.doesNotMatch(text, /\d{4}-\d\d-\d\dT/, 'no timestamps: the block is part of the cacheable prefix');
    assert.deepEqual(parseForkedFrom(text), { atStep: 3, edit: 'warmer', picks: [{ stepId: 'pick-a-direction', label: 'Candidate 2', objectId: uuid(2) }] });
    assert.equal(renderForkedFrom(null), null);
    // The offline model goes on with the open posters, in the kept look and the fork's direction, from the pick.
    const state = [
      '[task state]',
      '[checklist v1]',
      `1. [DONE] Look candidates (id look-candidates, IMAGE ×3) results: ${obj(1)}, ${obj(2)}, ${obj(3)}`,
      `2. [DONE] Pick a direction (id pick-a-direction, CHECKPOINT, needs the user, after look-candidates) results: ${obj(2)}`,
      '3. [TODO] Poster 1 (id poster-1, IMAGE, after pick-a-direction) — re-opened: warmer',
    ].join('\n');
    const reply = offlineFlowReply([new HumanMessage('Task: Coffee posters\nGoal: a few vintage posters for a coffee roaster'), new HumanMessage(text), new HumanMessage(state)], ['plan_checklist', 'generate_image', 'ask_user', 'update_checklist', 'complete_task']);
    assert.deepEqual(reply?.calls.map((c) => [c.name, c.args.checklistItemId, c.args.referenceId]), [['generate_image', 'poster-1', obj(2)]]);
    assert.match(String(reply!.calls[0]!.args.prompt), /Candidate 2.*warmer/);
  });
});

// ---- the running product -----------------------------------------------------------------------

const Create = graphql(`
  mutation ForkCreate($input: CreateTaskInput!) {
    createTask(input: $input) { task { id } }
  }
`);
const Resolve = graphql(`
  mutation ForkResolve($input: ResolveApprovalInput!) {
    resolveApproval(input: $input) { approval { id status } }
  }
`);
const Signal = graphql(`
  mutation ForkSignal($input: SignalTaskInput!) {
    signalTask(input: $input) { task { id status } }
  }
`);
const Fork = graphql(`
  mutation ForkTask($input: ForkTaskInput!) {
    forkTask(input: $input) {
      task {
        id
        status
        lastEventSeq
        forkedFrom { task { id } step stepTitle seq edit pickLabel instead }
        checklist { version items { id status artifacts evidence } }
      }
    }
  }
`);
const Links = graphql(`
  query ForkLinks($id: ID!) {
    task(id: $id) {
      id
      forks { id forkedFrom { step edit } }
      forkedFrom { task { id } step }
      cost { generationCents totalCents }
      ledger { chargedCents savedCents }
    }
  }
`);
const Events = graphql(`
  query ForkEvents($id: ID!, $after: Int, $first: Int) {
    task(id: $id) {
      lastEventSeq
      events(after: $after, first: $first) {
        edges { node { seq type payload task { id } } }
        pageInfo { hasNextPage }
      }
    }
  }
`);
const Live = graphql(`
  subscription ForkLive($taskId: ID!, $after: Int) {
    taskEvents(taskId: $taskId, after: $after) { seq type task { id } }
  }
`);

const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'];
type Card = { id: string; kind: string };

let t: TestApp;
let dir: string;
let n = 0;
const key = (p = 'k') => `${p}-${++n}`;
const prisma = () => t.app.deps.prisma;
const raw = (gid: string) => fromGlobalId(gid).id;
const gid = (id: string) => toGlobalId('Task', id);

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-fork-'));
  const scripted = scriptedProvider(posterModel);
  t = await startTestApp(
    'fork',
    { eventPollMs: 500 },
    {
      models: { ...scripted, info: { ...scripted.info, offline: true, description: 'Scripted poster model (test fixture)' } },
      provider: new SimulatedProvider({ filesDir: dir, latencyMs: { IMAGE: 150 } }),
    },
    { worker: { concurrency: 2 } },
  );
});
after(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Answers each new card (plans approved, picks with `pick`) until the task ends or `until` holds; returns the cards seen. */
async function settle(taskId: string, pick: string, until?: () => Promise<boolean>): Promise<Card[]> {
  const seen: Card[] = [];
  await waitFor(
    async () => {
      if (until && (await until())) return true;
      const task = await prisma().task.findUniqueOrThrow({ where: { id: taskId } });
      if (TERMINAL.includes(task.status)) return true;
      for (const a of await prisma().approval.findMany({ where: { taskId, status: 'PENDING' }, orderBy: { createdAt: 'asc' } })) {
        if (seen.some((s) => s.id === a.id)) continue;
        seen.push(a);
        const options = (a.options ?? []) as unknown[];
        await gqlOk(t.url, t.a.ownerToken, Resolve, {
          input: { approvalId: toGlobalId('Approval', a.id), decision: 'APPROVE', idempotencyKey: key('res'), ...(options.length ? { choice: pick } : {}) },
        });
      }
      return false;
    },
    `task ${taskId} to settle`,
    { timeoutMs: 90_000, intervalMs: 50 },
  );
  return seen;
}

/** No turn queued or running and no job still owed: nothing more will be written by itself. */
const atRest = async (taskId: string) =>
  (await prisma().turn.count({ where: { taskId, status: { in: ['QUEUED', 'RUNNING'] } } })) === 0 &&
  (await prisma().generationJob.count({ where: { taskId, status: { in: ['SUBMITTING', 'QUEUED', 'RUNNING', 'UNKNOWN'] } } })) === 0;

/** Everything of a task a fork must not change: its row, its log, its checklists, its money, its objects. */
async function fingerprint(taskId: string) {
  const task = await prisma().task.findUniqueOrThrow({ where: { id: taskId } });
  const events = await prisma().taskEvent.findMany({ where: { taskId }, orderBy: { seq: 'asc' }, select: { id: true, seq: true, type: true, payload: true, payloadHash: true, occurredAt: true } });
  return JSON.stringify({
    task,
    events,
    checklists: await prisma().taskChecklist.findMany({ where: { taskId }, orderBy: { version: 'asc' } }),
    ledger: await prisma().ledgerEntry.findMany({ where: { taskId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    jobs: await prisma().generationJob.findMany({ where: { taskId }, orderBy: { createdAt: 'asc' } }),
    refs: await prisma().taskObjectRef.findMany({ where: { taskId }, orderBy: { objectId: 'asc' } }),
    approvals: await prisma().approval.findMany({ where: { taskId }, orderBy: { createdAt: 'asc' } }),
    turns: await prisma().turn.count({ where: { taskId } }),
  }, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
}

/** A task's whole history over HTTP, in pages. */
async function history(taskId: string, page = 7) {
  const out: { seq: number; type: string; payload: unknown; task: string }[] = [];
  for (let after = 0; ; ) {
    const d = await gqlOk(t.url, t.a.ownerToken, Events, { id: gid(taskId), after, first: page });
    for (const e of d.task!.events.edges) out.push({ seq: e.node.seq, type: e.node.type, payload: e.node.payload, task: raw(e.node.task.id) });
    if (!d.task!.events.pageInfo.hasNextPage) return out;
    after = out.at(-1)!.seq;
  }
}

const checklistOf = async (taskId: string) => {
  const row = await prisma().taskChecklist.findFirstOrThrow({ where: { taskId }, orderBy: { version: 'desc' } });
  return (row.items as unknown[]).map((i) => ChecklistItemSchema.parse(i));
};
const forkInput = (taskId: string, atStep: number, edit: string, extra: Record<string, unknown> = {}) => ({ input: { taskId: gid(taskId), atStep, edit, idempotencyKey: key('fork'), ...extra } });

describe('a series forked at its pick while the original is mid-series', () => {
  let original: string;
  let fork: string;
  let before1: string;
  let forkedAtSeq: number;
  let prefix: Awaited<ReturnType<typeof history>>;

  test('the original runs: plan approved, three candidates; while the pick waits, step 3 cannot be forked yet', async () => {
    const r = await gqlOk(t.url, t.a.ownerToken, Create, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'Coffee posters', goal: 'make three retro posters for a coffee brand' } });
    original = raw(r.createTask.task.id);
    await settle(original, 'sunburst', async () => (await prisma().approval.count({ where: { taskId: original, kind: 'CHECKPOINT', status: 'PENDING' } })) > 0);
    await waitFor(() => atRest(original), 'the original waiting for the pick', { timeoutMs: 30_000 });
    const tasksBefore = await prisma().task.count();
    const seqBefore = (await prisma().task.findUniqueOrThrow({ where: { id: original } })).lastEventSeq;
    const res = await gql(t.url, t.a.ownerToken, Fork, forkInput(original, 3, 'warmer'));
    assert.equal(res.errors?.[0]?.extensions?.code, 'CONFLICT');
    assert.equal(res.errors?.[0]?.extensions?.reason, 'FORK_STEP_NOT_REACHED');
    assert.deepEqual(res.errors?.[0]?.extensions?.openSteps, ['pick']);
    assert.match(res.errors![0]!.message, /“You pick a direction” is not finished/);
    assert.equal(await prisma().task.count(), tasksBefore, 'no task was made');
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: original } })).lastEventSeq, seqBefore, 'nothing was written to the original');
  });

  test('the person picks Sunburst; mid-series the original is paused and comes to rest', async () => {
    const seriesStarted = async () => (await checklistOf(original)).find((i) => i.id === 'series')!.artifacts.length >= 1;
    await settle(original, 'sunburst', seriesStarted);
    await gqlOk(t.url, t.a.ownerToken, Signal, { input: { taskId: gid(original), signal: 'PAUSE', idempotencyKey: key('pause') } });
    await waitFor(async () => (await prisma().task.findUniqueOrThrow({ where: { id: original } })).status === 'PAUSED' && (await atRest(original)), 'the paused original at rest', { timeoutMs: 30_000 });
    const series = (await checklistOf(original)).find((i) => i.id === 'series')!;
    assert.ok(series.artifacts.length >= 1 && series.artifacts.length < 3, `mid-series: ${series.artifacts.length} of 3`);
    before1 = await fingerprint(original);
  });

  test('fork at the pick with another pick: a new task linked to the original, its history the original’s up to the fork point, then its own', async () => {
    const input = forkInput(original, 2, 'the diner look instead', { choice: 'Diner neon' });
    const d = (await gqlOk(t.url, t.a.ownerToken, Fork, input)).forkTask.task;
    fork = raw(d.id);
    assert.notEqual(fork, original);
    forkedAtSeq = d.forkedFrom!.seq;
    assert.deepEqual(
      { ...d.forkedFrom, task: raw(d.forkedFrom!.task!.id) },
      { task: original, step: 2, stepTitle: 'You pick a direction', seq: forkedAtSeq, edit: 'the diner look instead', pickLabel: 'Diner neon', instead: 'Sunburst' },
    );
    assert.equal(d.lastEventSeq, forkedAtSeq + 3, 'its own events start right after the fork point');
    // The fork point: after the candidates were made, before the turn that asked for the pick.
    const log = await prisma().taskEvent.findMany({ where: { taskId: original }, orderBy: { seq: 'asc' } });
    assert.equal(log.find((e) => e.seq === forkedAtSeq + 1)?.type, 'TURN_STARTED');
    const askedAt = log.find((e) => e.type === 'APPROVAL_REQUESTED' && (e.payload as { kind?: string; approvalKind?: string }).kind === 'CHECKPOINT')?.seq ?? Infinity;
    assert.ok(askedAt > forkedAtSeq, 'the pick card is not shared');

    // Retrying with the same key returns the same fork; the same key for another request is refused.
    assert.equal(raw((await gqlOk(t.url, t.a.ownerToken, Fork, input)).forkTask.task.id), fork);
    const reused = await gql(t.url, t.a.ownerToken, Fork, { input: { ...input.input, edit: 'something else' } });
    assert.equal(reused.errors?.[0]?.extensions?.code, 'IDEMPOTENCY_KEY_REUSED');

    // The checklist: candidates done with the original's own objects, the pick settled by the new
    // choice, the series open again with the edit.
    assert.deepEqual(d.checklist!.items.map((i) => i.status), ['DONE', 'DONE', 'TODO']);
    const items = await checklistOf(fork);
    const originals = await checklistOf(original);
    assert.deepEqual(items.map((i) => i.status), ['DONE', 'DONE', 'TODO']);
    assert.deepEqual(items[0]!.artifacts, originals[0]!.artifacts, 'the same candidate objects, shared');
    const card = await prisma().approval.findFirstOrThrow({ where: { taskId: original, kind: 'CHECKPOINT' } });
    const diner = (card.options as { id: string; objectId: string }[]).find((o) => o.id === 'diner')!;
    assert.deepEqual(items[1]!.artifacts, [`object:${diner.objectId}`]);
    assert.deepEqual([items[2]!.artifacts, items[2]!.evidence], [[], 're-opened: the diner look instead']);

    // Its history: exactly the original's events 1..forkedAtSeq (the same rows), then its own.
    // (The fork is already running: its own log grows while it is read.)
    const all = await history(fork);
    prefix = all.slice(0, forkedAtSeq + 3);
    const mine = await history(original);
    assert.deepEqual(prefix.slice(0, forkedAtSeq), mine.slice(0, forkedAtSeq));
    assert.deepEqual(all.map((e) => e.seq), Array.from({ length: all.length }, (_, i) => i + 1), 'one gap-free seq space');
    assert.ok(prefix.slice(0, forkedAtSeq).every((e) => e.task === original), 'shared by reference: they are the original’s events');
    assert.ok(all.slice(forkedAtSeq).every((e) => e.task === fork), 'then only its own');
    assert.deepEqual(prefix.slice(forkedAtSeq).map((e) => e.type), ['TASK_CREATED', 'TASK_FORKED', 'CHECKLIST_UPDATED']);
    assert.deepEqual((await history(fork, 500)).slice(0, prefix.length), prefix, 'read twice (another page size): the same history');

    const links = (await gqlOk(t.url, t.a.ownerToken, Links, { id: gid(original) })).task!;
    assert.deepEqual(links.forks.map((f) => [raw(f.id), f.forkedFrom!.step, f.forkedFrom!.edit]), [[fork, 2, 'the diner look instead']]);
  });

  test('the fork runs through the ordinary runtime: no candidate ordered again, only the three new posters, in the new pick; the original is unchanged', async () => {
    const cards = await settle(fork, 'diner');
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: fork } })).status, 'COMPLETED');
    assert.deepEqual(cards, [], 'the pick was made when forking: nothing is asked again');
    const jobs = await prisma().generationJob.findMany({ where: { taskId: fork }, orderBy: { createdAt: 'asc' } });
    assert.deepEqual(jobs.map((j) => (j.params as { checklistItemId?: string }).checklistItemId), ['series', 'series', 'series'], 'only the series was ordered');
    assert.ok(jobs.every((j) => j.prompt.startsWith('retro coffee poster, diner neon sign')), 'in the new pick');
    const items = await checklistOf(fork);
    assert.deepEqual(items.map((i) => i.status), ['DONE', 'DONE', 'DONE']);
    assert.deepEqual(items[0]!.artifacts, (await checklistOf(original))[0]!.artifacts, 'still the original’s candidates');
    assert.equal(items[2]!.artifacts.length, 3);
    // Its own money: three charges, on its own ledger.
    const ledger = await prisma().ledgerEntry.findMany({ where: { taskId: fork } });
    assert.deepEqual(ledger.filter((l) => l.kind === 'CHARGE').map((l) => l.jobId).sort(), jobs.map((j) => j.id).sort());
    const cost = (await gqlOk(t.url, t.a.ownerToken, Links, { id: gid(fork) })).task!.cost;
    assert.equal(cost.generationCents, jobs.reduce((s, j) => s + j.quoteCents, 0));
    // The shared objects are referenced by the fork, not copied.
    const refs = (await prisma().taskObjectRef.findMany({ where: { taskId: fork } })).map((r) => r.objectId);
    for (const a of items[0]!.artifacts) assert.ok(refs.includes(a.slice('object:'.length)), `the fork references ${a}`);
    assert.equal(await fingerprint(original), before1, 'the original: no event, no status change, no checklist, no ledger entry, no job');
    // Replay of the fork is deterministic: every recorded request rebuilt the same.
    const report = await replayTask(prisma(), fork);
    assert.ok(report.steps >= 3, `${report.steps} steps replayed`);
    assert.equal(report.divergence, null, JSON.stringify(report.divergence));
  });

  test('the original moves on (resumed to the end): the fork’s history reads the same, over HTTP and over a subscription', async () => {
    await gqlOk(t.url, t.a.ownerToken, Signal, { input: { taskId: gid(original), signal: 'RESUME', idempotencyKey: key('resume') } });
    await settle(original, 'sunburst');
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: original } })).status, 'COMPLETED');
    const again = await history(fork);
    assert.deepEqual(again.slice(0, prefix.length), prefix, 'the same prefix after the original went on');
    assert.ok(again.length > prefix.length);
    const last = (await prisma().task.findUniqueOrThrow({ where: { id: fork } })).lastEventSeq;
    const client = wsClient(t.url, t.a.ownerToken);
    try {
      const { collector, stop } = collect(client, Live, { taskId: gid(fork), after: 3 });
      await collector.until((items) => items.some((i) => i.taskEvents.seq === last), 20_000, 'the fork’s newest event');
      stop();
      const seqs = collector.items.map((i) => i.taskEvents.seq);
      assert.deepEqual(seqs, Array.from({ length: last - 3 }, (_, i) => i + 4), 'from after 3: the shared events, then its own, no gap, no duplicate');
      assert.deepEqual(collector.items.slice(0, forkedAtSeq - 3).map((i) => [i.taskEvents.seq, i.taskEvents.type]), again.slice(3, forkedAtSeq).map((e) => [e.seq, e.type]));
    } finally {
      await client.dispose();
    }
  });

  test('forks of the finished series: from the series step “warmer” (only three new posters), from the pick with the original’s own pick (the posters reused, nothing charged)', async () => {
    const done = await fingerprint(original);
    const warm = raw((await gqlOk(t.url, t.a.ownerToken, Fork, forkInput(original, 3, 'warmer'))).forkTask.task.id);
    await settle(warm, 'sunburst');
    const jobs = await prisma().generationJob.findMany({ where: { taskId: warm } });
    assert.equal(jobs.length, 3);
    assert.ok(jobs.every((j) => (j.params as { checklistItemId?: string }).checklistItemId === 'series' && j.prompt.startsWith('retro coffee poster, orange sunburst, 1970s type, warmer:')), jobs.map((j) => j.prompt).join(' | '));
    const warmItems = await checklistOf(warm);
    const origItems = await checklistOf(original);
    assert.deepEqual(warmItems.slice(0, 2).map((i) => i.artifacts), origItems.slice(0, 2).map((i) => i.artifacts), 'candidates and pick: the original’s');

    const same = raw((await gqlOk(t.url, t.a.ownerToken, Fork, forkInput(original, 2, 'the same look, once more', { choice: 'sunburst' }))).forkTask.task.id);
    await settle(same, 'sunburst');
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: same } })).status, 'COMPLETED');
    assert.equal(await prisma().generationJob.count({ where: { taskId: same } }), 0, 'nothing ordered: the same inputs as the original’s posters');
    const reuse = await prisma().ledgerEntry.findMany({ where: { taskId: same } });
    assert.deepEqual(reuse.map((l) => l.kind), ['REUSE', 'REUSE', 'REUSE'], 'the saving is on the fork’s ledger; no hold, no charge');
    assert.deepEqual((await checklistOf(same))[2]!.artifacts.sort(), origItems[2]!.artifacts.slice().sort(), 'the original’s posters, reused');
    assert.equal((await prisma().taskEvent.count({ where: { taskId: same, type: 'RESULT_REUSED' } })), 3);
    assert.equal(await fingerprint(original), done, 'the finished original is untouched by both forks');
  });
});

describe('bad input: a typed error with a sentence, and nothing written', () => {
  const code = (r: { errors?: { extensions?: Record<string, unknown> }[] }) => [r.errors?.[0]?.extensions?.code, r.errors?.[0]?.extensions?.reason];

  test('unknown task, another workspace’s task, step out of range, empty edit, a choice where there is no pick, an unknown choice, a read-only token', async () => {
    const task = await prisma().task.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, forkedFromId: null, status: 'COMPLETED' } });
    const other = await prisma().task.create({ data: { workspaceId: t.b.workspaceId, title: 'theirs' } });
    const count = async () => ({
      tasks: await prisma().task.count(),
      keys: Number((await prisma().$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM idempotency_records'))[0]!.n),
      seq: (await prisma().task.findUniqueOrThrow({ where: { id: task.id } })).lastEventSeq,
    });
    const start = await count();
    const cases: [Record<string, unknown>, string, string | undefined, RegExp, string?][] = [
      [forkInput(uuid(999), 2, 'x'), 'NOT_FOUND', undefined, /Task not found/],
      [forkInput(other.id, 1, 'x'), 'NOT_FOUND', undefined, /Task not found/],
      [forkInput(task.id, 0, 'x'), 'BAD_USER_INPUT', 'FORK_STEP_OUT_OF_RANGE', /Step 0 is not a step of this task: its plan has steps 1 to 3/],
      [forkInput(task.id, 4, 'x'), 'BAD_USER_INPUT', 'FORK_STEP_OUT_OF_RANGE', /steps 1 to 3/],
      [forkInput(task.id, 2, '   '), 'BAD_USER_INPUT', undefined, /edit: say what should change/],
      [forkInput(task.id, 3, 'x', { choice: 'diner' }), 'BAD_USER_INPUT', 'FORK_NOT_A_PICK', /is not a pick among candidates/],
      [forkInput(task.id, 2, 'x', { choice: 'Art deco' }), 'BAD_USER_INPUT', 'FORK_UNKNOWN_CHOICE', /“Art deco” is not one of the options .*“Sunburst”, “Diner neon”, “Atomic age”/],
      [forkInput(task.id, 2, 'x'), 'FORBIDDEN', undefined, /./, t.a.readToken],
    ];
    for (const [vars, want, reason, message, token] of cases) {
      const r = await gql(t.url, token ?? t.a.ownerToken, Fork, vars as Parameters<typeof gql<unknown, { input: never }>>[3] as never);
      assert.deepEqual(code(r), [want, reason], JSON.stringify(r.errors));
      assert.match(r.errors![0]!.message, message);
      assert.equal(r.data?.forkTask ?? null, null);
    }
    const unknown = await gql(t.url, t.a.ownerToken, Fork, forkInput(task.id, 2, 'x', { choice: 'Art deco' }));
    assert.deepEqual(unknown.errors?.[0]?.extensions?.options, [
      { id: 'sunburst', label: 'Sunburst' },
      { id: 'diner', label: 'Diner neon' },
      { id: 'atomic', label: 'Atomic age' },
    ]);
    assert.deepEqual(await count(), start, 'no task, no key record, no event');
  });
});
