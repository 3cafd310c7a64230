// Iterating on finished work: a change asked for after a task ended continues its line of work in a
// next round (a task of its own, linked to the round it continues) that plans only the change, with
// the earlier rounds' brief, decisions, checklist results and objects in its context. Pure: what a
// next round inherits and how the offline model reads it. Running product (GraphQL, the offline
// model, a worker, the simulated provider): a delivered series changed days later, a cancelled
// series taken up again, a retried message, archived work, "Move to…" a finished task, the API's
// view of a line, and replay of a next round.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { nextRoundsContext, renderEarlierRounds, ROUND_LIMITS, type RoundRecord } from '../server/domain/rounds.ts';
import { buildWorkerInput } from '../server/runtime/context.ts';
import { planSteps } from '../server/runtime/models/offline-flows.ts';
import { textsFor } from '../server/domain/replies/texts.ts';
import { earlierReference, namedPositions, parseEarlierRounds, planNextRound } from '../server/runtime/models/offline/rounds.ts';
import { replayTask } from '../server/runtime/replay.ts';
import { loadTaskState } from '../server/runtime/task-state.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, testConfig, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { waitFor } from './helpers/wait.ts';

// ---- pure: what a next round inherits, and the offline model's plan of only the change ----------

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ref = (n: number) => `object:${uuid(n)}`;

/** A delivered series of three posters: three candidates, the pick (candidate 2), posters 1–3. */
function series(over: Partial<RoundRecord> = {}): RoundRecord {
  return {
    round: 1,
    taskId: uuid(100),
    title: 'make three retro posters for a coffee brand',
    goal: 'make three retro posters for a coffee brand',
    status: 'COMPLETED',
    statusReason: null,
    summary: `Delivered: Poster 1 (${ref(4)}); Poster 2 (${ref(5)}); Poster 3 (${ref(6)})`,
    language: 'en',
    archived: false,
    checklist: [
      { id: 'look-candidates', title: 'Look candidates', kind: 'IMAGE', count: 3, status: 'DONE', results: [ref(1), ref(2), ref(3)], evidence: null },
      { id: 'pick-a-direction', title: 'Pick a direction', kind: 'CHECKPOINT', count: 1, status: 'DONE', results: [ref(2)], evidence: 'the user chose “Candidate 2”' },
      { id: 'poster-1', title: 'Poster 1', kind: 'IMAGE', count: 1, status: 'DONE', results: [ref(4)], evidence: null },
      { id: 'poster-2', title: 'Poster 2', kind: 'IMAGE', count: 1, status: 'DONE', results: [ref(5)], evidence: null },
      { id: 'poster-3', title: 'Poster 3', kind: 'IMAGE', count: 1, status: 'DONE', results: [ref(6)], evidence: null },
    ],
    decisions: [
      { kind: 'PLAN', title: 'Plan: 5 steps, estimated $0.24', status: 'APPROVED', choice: null, note: null },
      { kind: 'CHECKPOINT', title: 'Pick a direction: which one should the rest follow?', status: 'APPROVED', choice: 'Candidate 2', note: null },
    ],
    objects: [4, 5, 6].map((n, k) => ({ id: uuid(n), kind: 'IMAGE', name: `Poster ${k + 1}`, version: 1 })),
    ...over,
  };
}
const earlierOf = (...records: RoundRecord[]) => {
  let ctx = null as ReturnType<typeof nextRoundsContext> | null;
  for (const r of records) ctx = nextRoundsContext(ctx, r, uuid(100));
  return parseEarlierRounds(renderEarlierRounds(ctx)!)!;
};
const plan = (request: string, ...records: RoundRecord[]) => planNextRound(request, earlierOf(...(records.length ? records : [series()])));

describe('a next round (pure)', () => {
  test('the earlier rounds as the worker reads them: brief, outcome, decisions, checklist results, objects; the offline parser reads the same lines back', () => {
    const text = renderEarlierRounds(nextRoundsContext(null, series(), uuid(100)))!;
    assert.match(text, /^\[earlier rounds\] This task is round 2 of a line of work/);
    assert.match(text, /Round 1 \(task [0-9a-f-]{36}\): COMPLETED — asked: “make three retro posters for a coffee brand”/);
    assert.match(text, /Decisions: .*checkpoint “Pick a direction[^”]*”: approved, chose “Candidate 2”/);
    assert.match(text, new RegExp(`4\\. \\[DONE\\] Poster 2 \\(id poster-2, IMAGE\\) results: ${ref(5)}`));
    assert.match(text, new RegExp(`Objects: object:${uuid(4)} “Poster 1” \\(IMAGE v1\\)`));
    assert.doesNotMatch(text, /\d{4}-\d\d-\d\dT/, 'no timestamps: the block is part of the cacheable prefix');
    const parsed = parseEarlierRounds(text)!;
    assert.deepEqual(parsed.map((r) => [r.round, r.status, r.items.length]), [[1, 'COMPLETED', 5]]);
    assert.deepEqual(parsed[0]!.items[0], { round: 1, n: 1, id: 'look-candidates', status: 'DONE', title: 'Look candidates', kind: 'IMAGE', count: 3, results: [ref(1), ref(2), ref(3)] });
    assert.equal(renderEarlierRounds(null), null, 'a first round has no such block');
  });

  test('a long line stays bounded: older rounds keep their results, not their decisions and objects', () => {
    let ctx = null as ReturnType<typeof nextRoundsContext> | null;
    for (let r = 1; r <= ROUND_LIMITS.fullRounds + 2; r++) ctx = nextRoundsContext(ctx, series({ round: r, taskId: uuid(100 + r) }), uuid(101));
    assert.equal(ctx!.rounds.length, ROUND_LIMITS.fullRounds + 2);
    assert.deepEqual(ctx!.rounds.slice(0, 2).map((r) => [r.decisions.length, r.objects.length, r.checklist[3]!.results]), [[0, 0, [ref(5)]], [0, 0, [ref(5)]]]);
    assert.ok(ctx!.rounds.slice(2).every((r) => r.decisions.length === 2 && r.objects.length === 3));
    const long = nextRoundsContext(null, series({ goal: 'x'.repeat(5000), checklist: Array.from({ length: 80 }, (_, i) => ({ id: `step-${i}`, title: `Step ${i}`, kind: 'IMAGE', count: 1, status: 'DONE', results: [ref(i)], evidence: 'e'.repeat(900) })) }), uuid(100));
    assert.equal(long.rounds[0]!.checklist.length, ROUND_LIMITS.items);
    assert.ok(long.rounds[0]!.goal.length <= ROUND_LIMITS.text && long.rounds[0]!.checklist[0]!.evidence!.length <= ROUND_LIMITS.evidence);
  });

  test('"make the second poster warmer", in six languages: one image step revising poster 2, from poster 2', () => {
    for (const request of [
      'make the second poster warmer',
      'Mach das zweite Plakat wärmer',
      'Rends la deuxième affiche plus chaude',
      'Haz el segundo cartel más cálido',
      '把第二张海报的颜色改得更暖一些',
      '2枚目のポスターをもっと暖かい色にして',
      'poster 2 should be warmer',
    ]) {
      const p = plan(request);
      assert.equal(p?.kind, 'change', request);
      assert.equal(planSteps(p!), 'IMAGE', request);
      assert.deepEqual(p!.items.map((i) => [i.id, i.title]), [['revise-poster-2', 'Revise Poster 2']], request);
    }
    const rounds = earlierOf(series());
    assert.equal(earlierReference(rounds, { id: 'revise-poster-2', kind: 'IMAGE' }), ref(5), 'the earlier poster is the reference');
    // Titles in the task's language (ids stay the English slugs): the same step is found.
    const german = series({ language: 'de', checklist: series().checklist.map((i) => ({ ...i, title: i.title.replace('Poster', 'Plakat') })) });
    const de = textsFor('de');
    assert.deepEqual(planNextRound('Mach das zweite Plakat wärmer', earlierOf(german), de)!.items.map((i) => [i.id, i.title]), [['revise-poster-2', 'Plakat 2 überarbeiten']]);
    // The revision's title is in the task's language, also of an English round's step; revising a
    // revision names the step once, not "… überarbeiten überarbeiten".
    assert.deepEqual(planNextRound('Mach das zweite Plakat wärmer', earlierOf(series()), de)!.items.map((i) => i.title), ['Plakat 2 überarbeiten']);
    const round2 = series({ round: 2, taskId: uuid(200), language: 'de', checklist: [{ id: 'revise-poster-2', title: 'Plakat 2 überarbeiten', kind: 'IMAGE', count: 1, status: 'DONE', results: [ref(7)], evidence: null }], decisions: [], objects: [] });
    assert.deepEqual(planNextRound('Das zweite noch heller', earlierOf(german, round2), de)!.items.map((i) => [i.id, i.title]), [['revise-poster-2', 'Plakat 2 überarbeiten']]);
    assert.deepEqual(planNextRound('把第二张海报改得更暖', earlierOf(series()), textsFor('zh'))!.items.map((i) => i.title), ['修改海报 2']);
    // Candidates known only by a localized title (a model's plan whose ids came from its titles) are never a result to revise.
    const localIds = series({ checklist: series().checklist.map((i) => (i.id === 'look-candidates' ? { ...i, id: 'entwuerfe', title: de.offline.step({ step: 'lookCandidates' }) } : i)) });
    assert.deepEqual(planNextRound('Mach alle Plakate wärmer', earlierOf(localIds), de)!.items.map((i) => i.id), ['revise-poster-1', 'revise-poster-2', 'revise-poster-3']);
  });

  test('which results a change is about: the last one, several, all of them; a revision replaces what it revised', () => {
    assert.deepEqual(plan('the last one needs a darker background')!.items.map((i) => i.title), ['Revise Poster 3']);
    assert.deepEqual(plan('make the first and the third poster brighter')!.items.map((i) => i.title), ['Revise Poster 1', 'Revise Poster 3']);
    assert.deepEqual(plan('make the posters warmer')!.items.map((i) => i.title), ['Revise Poster 1', 'Revise Poster 2', 'Revise Poster 3'], 'no position named: every delivered poster, never the candidates');
    assert.deepEqual(namedPositions('seconds matter: a 30 second clip'), [], 'a duration is no position');
    // Round 2 revised poster 2; round 3 changes poster 2 again: it starts from round 2's result.
    const round2 = series({ round: 2, taskId: uuid(200), goal: 'make the second poster warmer', checklist: [{ id: 'revise-poster-2', title: 'Revise Poster 2', kind: 'IMAGE', count: 1, status: 'DONE', results: [ref(7)], evidence: null }], decisions: [], objects: [] });
    const rounds = earlierOf(series(), round2);
    assert.equal(earlierReference(rounds, { id: 'revise-poster-2', kind: 'IMAGE' }), ref(7));
    assert.deepEqual(planNextRound('and the second one a bit lighter', rounds)!.items.map((i) => i.title), ['Revise Poster 2']);
  });

  test('new work in a line: another kind, or more of the same, is planned from the request', () => {
    assert.equal(plan('now compose a short jingle to go with them')?.kind, 'audio');
    assert.equal(plan('make three more posters in the same style')?.kind, 'poster-series');
  });

  test('after a cancelled round: the steps it left, from what it made (the candidates, not made again)', () => {
    const cancelled = series({
      status: 'CANCELLED',
      statusReason: 'cancelled by you',
      summary: '',
      checklist: [
        { id: 'look-candidates', title: 'Look candidates', kind: 'IMAGE', count: 3, status: 'DONE', results: [ref(1), ref(2), ref(3)], evidence: null },
        { id: 'pick-a-direction', title: 'Pick a direction', kind: 'CHECKPOINT', count: 1, status: 'TODO', results: [], evidence: null },
        { id: 'poster-1', title: 'Poster 1', kind: 'IMAGE', count: 1, status: 'TODO', results: [], evidence: null },
        { id: 'poster-2', title: 'Poster 2', kind: 'IMAGE', count: 1, status: 'TODO', results: [], evidence: null },
      ],
    });
    const text = renderEarlierRounds(nextRoundsContext(null, cancelled, uuid(100)))!;
    assert.match(text, /Round 1 \(task [^)]*\): CANCELLED \(cancelled by you\)/);
    assert.match(text, /Unfinished when it ended: Pick a direction, Poster 1, Poster 2/);
    const p = plan('ok, go on with the posters after all', cancelled);
    assert.equal(p?.kind, 'resume');
    assert.deepEqual(p!.items.map((i) => `${i.kind} ${i.id}`), ['CHECKPOINT pick-a-direction', 'IMAGE poster-1', 'IMAGE poster-2'], 'the same steps, by id');
  });
});

// ---- the running product -------------------------------------------------------------------------

const Send = graphql(`
  mutation RoundsSend($input: SendMessageInput!) {
    sendMessage(input: $input) {
      duplicate
      message { id }
      route { outcome method task { id } }
      task { id }
    }
  }
`);
const Create = graphql(`
  mutation RoundsCreate($input: CreateTaskInput!) {
    createTask(input: $input) { task { id } }
  }
`);
const Resolve = graphql(`
  mutation RoundsResolve($input: ResolveApprovalInput!) {
    resolveApproval(input: $input) { approval { id status } }
  }
`);
const Signal = graphql(`
  mutation RoundsSignal($input: SignalTaskInput!) {
    signalTask(input: $input) { task { id status } }
  }
`);
const Reroute = graphql(`
  mutation RoundsReroute($messageId: ID!, $taskId: ID!) {
    rerouteMessage(messageId: $messageId, taskId: $taskId) { message { id route { task { id } } } }
  }
`);
const Line = graphql(`
  query RoundsLine($id: ID!) {
    task(id: $id) {
      id
      status
      round
      previousRound { id status }
      nextRound { id }
      rounds { id round status }
      line { size firstRound { id } latestRound { id } rounds { id } }
      checklist { items { title kind status artifacts } }
    }
  }
`);
const List = graphql(`
  query RoundsList($ws: ID!, $all: Boolean) {
    workspace(id: $ws) { tasks(first: 50, allRounds: $all) { edges { node { id round } } } }
  }
`);

const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'];
type Card = { id: string; kind: string; options: unknown };
type Answer = { decision: 'APPROVE' | 'REJECT'; choice?: string } | null;

let t: TestApp;
let dir: string;
let ws: string;
let n = 0;
const key = (p = 'k') => `${p}-${++n}`;
const prisma = () => t.app.deps.prisma;
const raw = (gid: string) => fromGlobalId(gid).id;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-rounds-'));
  t = await startTestApp(
    'rounds',
    { runtime: { ...testConfig().runtime, leaseMs: 3000, watchdogMs: 500, staleQueuedMs: 5000 } },
    { provider: new SimulatedProvider({ filesDir: dir, latencyMs: { IMAGE: 40 } }) },
    { worker: { concurrency: 2 } },
  );
  ws = toGlobalId('Workspace', t.a.workspaceId);
});
after(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const send = (text: string, extra: Record<string, unknown> = {}) => gqlOk(t.url, t.a.ownerToken, Send, { input: { workspaceId: ws, text, idempotencyKey: key('msg'), ...extra } }).then((d) => d.sendMessage);

/** Answers each new card of the task with `answer` until the task ends (or `until` holds); returns the cards it saw. */
async function settle(taskId: string, answer: (c: Card) => Answer, until?: () => Promise<boolean>): Promise<Card[]> {
  const seen: Card[] = [];
  await waitFor(
    async () => {
      if (until && (await until())) return true;
      const task = await prisma().task.findUniqueOrThrow({ where: { id: taskId } });
      if (TERMINAL.includes(task.status)) return true;
      for (const a of await prisma().approval.findMany({ where: { taskId, status: 'PENDING' }, orderBy: { createdAt: 'asc' } })) {
        if (seen.some((s) => s.id === a.id)) continue;
        seen.push(a);
        const ans = answer(a);
        if (ans) await gqlOk(t.url, t.a.ownerToken, Resolve, { input: { approvalId: toGlobalId('Approval', a.id), decision: ans.decision, idempotencyKey: key('res'), ...(ans.choice ? { choice: ans.choice } : {}) } });
      }
      return false;
    },
    `task ${taskId} to settle`,
    { timeoutMs: 90_000, intervalMs: 50 },
  );
  return seen;
}
const approveAll = (pick = 'c2') => (c: Card): Answer => (c.kind === 'CHECKPOINT' && Array.isArray(c.options) && c.options.length ? { decision: 'APPROVE', choice: pick } : { decision: 'APPROVE' });

/** What a task's log and row look like, to show they did not change. */
async function fingerprint(taskId: string) {
  const task = await prisma().task.findUniqueOrThrow({ where: { id: taskId } });
  const events = await prisma().taskEvent.findMany({ where: { taskId }, orderBy: { seq: 'asc' }, select: { seq: true, type: true, payload: true, payloadHash: true, occurredAt: true } });
  return { status: task.status, endedAt: task.endedAt, updatedAt: task.updatedAt, lastEventSeq: task.lastEventSeq, summary: task.summary, checklistVersion: task.checklistVersion, events: JSON.stringify(events) };
}

/** Moves a task's (and its messages') clock back by `days` (the event log is append-only and keeps its times). */
async function daysAgo(taskId: string, days: number) {
  const ms = days * 24 * 3600_000;
  await prisma().$executeRawUnsafe(
    `UPDATE tasks SET created_at = created_at - $2::int * interval '1 millisecond', updated_at = updated_at - $2::int * interval '1 millisecond',
            ended_at = ended_at - $2::int * interval '1 millisecond', last_activity_at = last_activity_at - $2::int * interval '1 millisecond' WHERE id = $1::uuid`,
    taskId,
    ms,
  );
  await prisma().$executeRawUnsafe(`UPDATE messages SET created_at = created_at - $2::int * interval '1 millisecond' WHERE task_id = $1::uuid`, taskId, ms);
}

describe('iterating on a delivered series', () => {
  let first: string;
  let second: string;
  let before1: Awaited<ReturnType<typeof fingerprint>>;

  test('a poster series is delivered (plan approved, candidate 2 picked)', async () => {
    const r = await send('make three retro posters for a coffee brand');
    first = raw(r.task!.id);
    await settle(first, approveAll('c2'));
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: first } })).status, 'COMPLETED');
    await daysAgo(first, 4);
    before1 = await fingerprint(first);
  });

  test('"make the second poster warmer" days later: a next round that plans one image step from poster 2, ordered once, with no plan card; the delivered round is untouched', async () => {
    // A paid step still passes the approvals gate as usual: every paid action is confirmed here.
    await prisma().workspaceSettings.update({ where: { workspaceId: t.a.workspaceId }, data: { autonomy: 'MANUAL' } });
    const r = await send('make the second poster warmer', { taskId: toGlobalId('Task', first) });
    assert.equal(r.route.outcome, 'EXISTING_TASK');
    second = raw(r.task!.id);
    assert.notEqual(second, first, 'the delivered task is not written to');
    const cards = await settle(second, approveAll());
    const round2 = await prisma().task.findUniqueOrThrow({ where: { id: second } });
    assert.equal(round2.status, 'COMPLETED', round2.statusReason ?? '');
    assert.deepEqual([round2.round, round2.previousRoundId, round2.lineId, round2.title], [2, first, first, (await prisma().task.findUniqueOrThrow({ where: { id: first } })).title]);
    assert.deepEqual(cards.map((c) => c.kind), ['PAID_ACTION'], 'no plan card for the whole series; the one paid step is confirmed');

    // Only the change was planned and ordered: one image step, one order, from poster 2.
    const plan1 = (await prisma().taskChecklist.findFirstOrThrow({ where: { taskId: first }, orderBy: { version: 'desc' } })).items as { id: string; artifacts: string[] }[];
    const poster2 = plan1.find((i) => i.id === 'poster-2')!.artifacts[0]!;
    const steps = (await gqlOk(t.url, t.a.ownerToken, Line, { id: toGlobalId('Task', second) })).task!.checklist!.items;
    assert.deepEqual(steps.map((i) => [i.kind, i.title, i.status]), [['IMAGE', 'Revise Poster 2', 'DONE']]);
    const jobs = await prisma().generationJob.findMany({ where: { taskId: second } });
    assert.equal(jobs.length, 1, 'ordered once');
    assert.equal((jobs[0]!.params as { referenceId?: string }).referenceId, poster2, 'the earlier poster is the reference');
    assert.match(jobs[0]!.prompt, /Revise Poster 2 — make the second poster warmer/);
    assert.equal(await prisma().ledgerEntry.count({ where: { taskId: second, kind: 'CHARGE' } }), 1, 'charged once');

    // The context had the earlier round: brief, decisions, checklist results.
    const firstRequest = (await prisma().step.findFirstOrThrow({ where: { taskId: second }, orderBy: [{ createdAt: 'asc' }] })).request as { messages: { content: unknown }[] };
    const earlier = firstRequest.messages.map((m) => String(m.content)).find((c) => c.startsWith('[earlier rounds]'));
    assert.ok(earlier, 'the request carries the earlier rounds');
    assert.match(earlier!, /Round 1 \(task [^)]*\): COMPLETED — asked: “make three retro posters for a coffee brand”/);
    assert.match(earlier!, /chose “Candidate B”/);
    assert.ok(earlier!.includes(`Poster 2 (id poster-2, IMAGE) results: ${poster2}`));

    // The delivered round: still COMPLETED, its row and its events exactly as they were.
    assert.deepEqual(await fingerprint(first), before1);
  });

  test('the API shows one line of work: rounds, previous and next round; the task list shows the line once, as its latest round', async () => {
    const d = (await gqlOk(t.url, t.a.ownerToken, Line, { id: toGlobalId('Task', first) })).task!;
    assert.deepEqual([d.round, d.previousRound, d.nextRound?.id], [1, null, toGlobalId('Task', second)]);
    assert.deepEqual(d.rounds.map((r) => [r.round, r.status]), [[1, 'COMPLETED'], [2, 'COMPLETED']]);
    const s = (await gqlOk(t.url, t.a.ownerToken, Line, { id: toGlobalId('Task', second) })).task!;
    assert.deepEqual([s.round, s.previousRound?.id, s.previousRound?.status, s.nextRound], [2, toGlobalId('Task', first), 'COMPLETED', null]);
    assert.deepEqual([s.line.size, s.line.firstRound.id, s.line.latestRound.id], [2, toGlobalId('Task', first), toGlobalId('Task', second)]);
    const listed = (await gqlOk(t.url, t.a.ownerToken, List, { ws })).workspace!.tasks.edges.map((e) => e.node.id);
    assert.ok(listed.includes(toGlobalId('Task', second)) && !listed.includes(toGlobalId('Task', first)), 'the line once, as its latest round');
    const all = (await gqlOk(t.url, t.a.ownerToken, List, { ws, all: true })).workspace!.tasks.edges.map((e) => e.node.id);
    assert.ok(all.includes(toGlobalId('Task', first)) && all.includes(toGlobalId('Task', second)));
    // Another workspace sees none of it.
    const other = await gql(t.url, t.b.ownerToken, Line, { id: toGlobalId('Task', second) });
    assert.equal(other.data?.task ?? null, null);
  });

  test('a next round replays exactly: its requests are rebuilt from the journal and the inherited rounds', async () => {
    const report = await replayTask(prisma(), second);
    assert.ok(report.steps > 0);
    assert.equal(report.divergence, null, JSON.stringify(report.divergence));
  });

  test('a follow-up to the first round after the second ended continues the latest round: a third round, from the delivered poster 3', async () => {
    await prisma().workspaceSettings.update({ where: { workspaceId: t.a.workspaceId }, data: { autonomy: 'SUPERVISED' } });
    const r3 = await send('and the third poster a bit brighter', { taskId: toGlobalId('Task', first) });
    const third = raw(r3.task!.id);
    const round3 = await prisma().task.findUniqueOrThrow({ where: { id: third } });
    assert.deepEqual([round3.previousRoundId, round3.round, round3.lineId], [second, 3, first], 'continues the latest round, not the first');
    const cards = await settle(third, approveAll());
    assert.deepEqual(cards, []);
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: third } })).status, 'COMPLETED');
    const jobs3 = await prisma().generationJob.findMany({ where: { taskId: third } });
    const c1 = (await prisma().taskChecklist.findFirstOrThrow({ where: { taskId: first }, orderBy: { version: 'desc' } })).items as { id: string; artifacts: string[] }[];
    assert.equal(jobs3.length, 1);
    assert.equal((jobs3[0]!.params as { referenceId?: string }).referenceId, c1.find((i) => i.id === 'poster-3')!.artifacts[0]);
    // Round 3 knows both earlier rounds.
    const request = (await prisma().step.findFirstOrThrow({ where: { taskId: third }, orderBy: [{ createdAt: 'asc' }] })).request as { messages: { content: unknown }[] };
    const earlier = request.messages.map((m) => String(m.content)).find((c) => c.startsWith('[earlier rounds]'))!;
    assert.match(earlier, /round 3 of a line of work/);
    assert.match(earlier, /Round 2 \(task [^)]*\): COMPLETED — asked: “make the second poster warmer”/);
  });
});

describe('a line whose latest round is live', () => {
  test('a message for an ended round goes to the live latest round of its line: no new round', async () => {
    const done = await prisma().task.create({ data: { workspaceId: t.a.workspaceId, title: 'Festival flyer', goal: 'a flyer', status: 'COMPLETED', endedAt: new Date() } });
    const live = await prisma().task.create({ data: { workspaceId: t.a.workspaceId, title: 'Festival flyer', goal: 'brighter', status: 'WAITING', previousRoundId: done.id, lineId: done.id, round: 2 } });
    const r = await send('also add the date', { taskId: toGlobalId('Task', done.id) });
    assert.equal(raw(r.task!.id), live.id);
    assert.equal(await prisma().task.count({ where: { lineId: done.id } }), 1);
    assert.equal(await prisma().inboxItem.count({ where: { taskId: live.id, kind: 'MESSAGE' } }), 1);
    assert.equal(await prisma().taskEvent.count({ where: { taskId: done.id } }), 0, 'the ended round is not written to');
  });

  test('the database refuses a next round of live work: a line never branches', async () => {
    const running = await prisma().task.create({ data: { workspaceId: t.a.workspaceId, title: 'Still running', status: 'RUNNING' } });
    await assert.rejects(
      prisma().task.create({ data: { workspaceId: t.a.workspaceId, title: 'Still running', previousRoundId: running.id, lineId: running.id, round: 2 } }),
      /task_next_round_of_ended|can only follow a round that has ended/,
    );
  });
});

describe('a retried message', () => {
  test('the same follow-up sent twice at once starts one next round, with the message in its inbox once', async () => {
    const done = await prisma().task.create({ data: { workspaceId: t.a.workspaceId, title: 'Menu card', goal: 'a menu card', status: 'COMPLETED', summary: 'menu delivered', endedAt: new Date() } });
    const input = { workspaceId: ws, text: 'use a serif font on the menu', taskId: toGlobalId('Task', done.id), idempotencyKey: key('retry') };
    const [a, b] = await Promise.all([gql(t.url, t.a.ownerToken, Send, { input }), gql(t.url, t.a.ownerToken, Send, { input })]);
    assert.ok(!a.errors && !b.errors, JSON.stringify([a.errors, b.errors]));
    const c = (await gqlOk(t.url, t.a.ownerToken, Send, { input })).sendMessage;
    assert.equal(new Set([a.data!.sendMessage.message.id, b.data!.sendMessage.message.id, c.message.id]).size, 1, 'one message');
    assert.equal(new Set([a.data!.sendMessage.task!.id, b.data!.sendMessage.task!.id, c.task!.id]).size, 1, 'one round');
    assert.equal(c.duplicate, true);
    const rounds = await prisma().task.findMany({ where: { previousRoundId: done.id } });
    assert.equal(rounds.length, 1);
    assert.equal(await prisma().inboxItem.count({ where: { taskId: rounds[0]!.id, kind: 'MESSAGE' } }), 1);
  });
});

describe('two follow-ups at once', () => {
  test('two different messages for one ended task at the same moment: one next round takes both', async () => {
    const done = await prisma().task.create({ data: { workspaceId: t.a.workspaceId, title: 'Wine label', goal: 'a wine label', status: 'COMPLETED', endedAt: new Date() } });
    const taskId = toGlobalId('Task', done.id);
    const [a, b] = await Promise.all([send('a gold border on the label', { taskId }), send('and the vintage year in small caps', { taskId })]);
    assert.equal(a.task!.id, b.task!.id, 'the same round');
    const rounds = await prisma().task.findMany({ where: { lineId: done.id } });
    assert.equal(rounds.length, 1);
    assert.equal(await prisma().inboxItem.count({ where: { taskId: rounds[0]!.id, kind: 'MESSAGE' } }), 2);
  });
});

describe('a cancelled series taken up again', () => {
  test('the next round knows what was cancelled: it makes the pick among the candidates already made and the posters, nothing twice', async () => {
    await prisma().workspaceSettings.update({ where: { workspaceId: t.a.workspaceId }, data: { autonomy: 'SUPERVISED' } });
    // Created directly (not through the router, which may see the coffee series as related work).
    const created = await gqlOk(t.url, t.a.ownerToken, Create, { input: { workspaceId: ws, title: 'Tea house posters', goal: 'make two retro posters for a tea house' } });
    const first = raw(created.createTask.task.id);
    // Approve the plan; when the pick is asked, cancel the task instead.
    await settle(first, (c) => (c.kind === 'CHECKPOINT' ? null : { decision: 'APPROVE' }), async () => (await prisma().approval.count({ where: { taskId: first, kind: 'CHECKPOINT', status: 'PENDING' } })) > 0);
    await gqlOk(t.url, t.a.ownerToken, Signal, { input: { taskId: toGlobalId('Task', first), signal: 'CANCEL', idempotencyKey: key('cancel') } });
    await waitFor(async () => (await prisma().task.findUniqueOrThrow({ where: { id: first } })).status === 'CANCELLED', 'the cancel');
    await waitFor(async () => (await prisma().generationJob.count({ where: { taskId: first, status: { notIn: ['SUCCEEDED', 'FAILED', 'CANCELLED'] } } })) === 0, 'no job of the cancelled task runs');
    await waitFor(async () => (await prisma().turn.count({ where: { taskId: first, status: { in: ['QUEUED', 'RUNNING'] } } })) === 0, 'no turn of the cancelled task runs');
    await daysAgo(first, 2);
    const before1 = await fingerprint(first);
    const candidates = ((await prisma().taskChecklist.findFirstOrThrow({ where: { taskId: first }, orderBy: { version: 'desc' } })).items as { kind: string; count: number; artifacts: string[] }[]).find((i) => i.kind === 'IMAGE' && i.count === 3)!.artifacts;
    assert.equal(candidates.length, 3);

    const f = await send('ok, go on with the tea house posters after all', { taskId: toGlobalId('Task', first) });
    const second = raw(f.task!.id);
    assert.notEqual(second, first);
    const brief = (await buildWorkerInput(prisma(), second)).messages.map((m) => String(m.content)).find((c) => c.startsWith('[earlier rounds]'))!;
    assert.match(brief, /Round 1 \(task [^)]*\): CANCELLED/);
    assert.match(brief, /Unfinished when it ended: Pick a direction, Poster 1, Poster 2/);
    const cards = await settle(second, approveAll('c1'));
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: second } })).status, 'COMPLETED');
    assert.deepEqual(cards.map((c) => c.kind), ['PLAN', 'CHECKPOINT'], "this round's own plan (two posters) and the pick");
    const pick = cards.find((c) => c.kind === 'CHECKPOINT')!;
    assert.deepEqual((pick.options as { objectId: string }[]).map((o) => `object:${o.objectId}`), candidates, 'the pick is among the candidates the cancelled round made');
    const jobs = await prisma().generationJob.findMany({ where: { taskId: second } });
    assert.equal(jobs.length, 2, 'two posters, no candidates made again');
    assert.ok(jobs.every((j) => (j.params as { referenceId?: string }).referenceId === candidates[0]), 'both from the pick');
    const planned = await prisma().taskChecklist.findFirstOrThrow({ where: { taskId: second, version: 1 } });
    assert.match(planned.reason, /offline plan \(resume\)/);
    assert.deepEqual(await fingerprint(first), before1, 'the cancelled round stays as it ended');
  });
});

describe('archived work and "Move to…"', () => {
  test('a message for an archived task starts its next round; the archived round is not written to', async () => {
    const done = await prisma().task.create({ data: { workspaceId: t.a.workspaceId, title: 'Annual report cover', goal: 'a cover', status: 'COMPLETED', summary: 'cover v3 delivered', endedAt: new Date(), archivedAt: new Date() } });
    const r = await send('one more version with a photo', { taskId: toGlobalId('Task', done.id) });
    const next = await prisma().task.findUniqueOrThrow({ where: { id: raw(r.task!.id) } });
    assert.deepEqual([next.previousRoundId, next.round, next.title, next.archivedAt], [done.id, 2, 'Annual report cover', null]);
    assert.deepEqual(await prisma().task.findUniqueOrThrow({ where: { id: done.id } }), done);
    assert.equal(await prisma().taskEvent.count({ where: { taskId: done.id } }), 0);
    await gql(t.url, t.a.ownerToken, Signal, { input: { taskId: r.task!.id, signal: 'CANCEL', idempotencyKey: key('c') } });
  });

  test('"Move to…" a finished task delivers the message to its next round; moving it there again is refused', async () => {
    const done = await prisma().task.create({ data: { workspaceId: t.a.workspaceId, title: 'Brochure for the museum', goal: 'a brochure', status: 'COMPLETED', summary: 'brochure delivered', endedAt: new Date() } });
    const live = await prisma().task.create({ data: { workspaceId: t.a.workspaceId, title: 'Website hero image', goal: 'a hero image', status: 'PAUSED' } });
    const m = await send('use the darker logo on the cover', { taskId: toGlobalId('Task', live.id) });
    const moved = (await gqlOk(t.url, t.a.ownerToken, Reroute, { messageId: m.message.id, taskId: toGlobalId('Task', done.id) })).rerouteMessage.message;
    const next = await prisma().task.findFirstOrThrow({ where: { previousRoundId: done.id } });
    assert.equal(moved.route?.task?.id, toGlobalId('Task', next.id));
    assert.equal(await prisma().inboxItem.count({ where: { taskId: next.id, withdrawnAt: null } }), 1);
    assert.equal(await prisma().task.count({ where: { previousRoundId: done.id } }), 1);
    const again = await gql(t.url, t.a.ownerToken, Reroute, { messageId: m.message.id, taskId: toGlobalId('Task', done.id) });
    assert.equal(again.errors?.[0]?.extensions?.code, 'CONFLICT');
    assert.equal(await prisma().task.count({ where: { previousRoundId: done.id } }), 1, 'no second round for the same message');
    await gql(t.url, t.a.ownerToken, Signal, { input: { taskId: toGlobalId('Task', next.id), signal: 'CANCEL', idempotencyKey: key('c') } });
  });

  test('a next round whose inherited rounds are stored by reference still folds and renders them', async () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ id: `poster-${i + 1}`, title: `Poster ${i + 1} for the long-running campaign of the city library`, kind: 'IMAGE', count: 1, status: 'DONE', artifacts: [`object:${uuid(1000 + i)}`], evidence: 'generated from the picked candidate in the agreed style; warm palette, grain, the library crest bottom right, the dates in the serif face, approved by the committee', needsApproval: false, estimateCents: 4, round: 0, ordered: 1 }));
    const done = await prisma().task.create({ data: { workspaceId: t.a.workspaceId, title: 'Library campaign', goal: 'thirty posters', status: 'COMPLETED', endedAt: new Date(), checklistVersion: 1 } });
    await prisma().taskChecklist.create({ data: { taskId: done.id, version: 1, items, reason: 'plan', authorKind: 'AGENT' } });
    const r = await send('make the fifth poster warmer', { taskId: toGlobalId('Task', done.id) });
    const next = raw(r.task!.id);
    const created = await prisma().taskEvent.findFirstOrThrow({ where: { taskId: next, type: 'TASK_CREATED' } });
    assert.ok(created.payloadHash, 'the inherited rounds are large enough to be stored by reference');
    const { state } = await loadTaskState(prisma(), next);
    assert.deepEqual(state.inherited, (await prisma().task.findUniqueOrThrow({ where: { id: next } })).inherited);
    await settle(next, approveAll());
    const jobs = await prisma().generationJob.findMany({ where: { taskId: next } });
    assert.deepEqual(jobs.map((j) => (j.params as { referenceId?: string }).referenceId), [`object:${uuid(1004)}`]);
    const report = await replayTask(prisma(), next);
    assert.equal(report.divergence, null, JSON.stringify(report.divergence));
  });
});
