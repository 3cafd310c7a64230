// Conversation continuity, played by the scripted user: a change to a delivered series days later
// continues it as a next round that makes only the change; a clarification card answered with
// answerCard sends the message that raised it (its own words) to the task chosen; a revision while
// the plan card waits sets the card aside and the task asks again about the revised plan. Outcomes
// are checked in the database, never in the words the offline model writes.
import assert from 'node:assert/strict';
import type { JobStatus } from '../../server/generation/status.ts';
import { readChecklist } from '../../server/store/checklist/write-checklist.ts';
import { toGlobalId } from '../helpers/clients.ts';
import { waitFor } from '../helpers/wait.ts';
import { person, type Scenario, type ScenarioContext } from './harness.ts';

/** A series, and the change to its second poster the person asks for days later (same language). */
export const SERIES_THEN_CHANGE: readonly { text: string; posters: number; change: string }[] = [
  { text: 'a few vintage posters for a coffee roaster', posters: 3, change: 'make the second poster warmer' },
  { text: 'design five retro posters for a roastery', posters: 5, change: 'poster 2 should be warmer' },
  { text: 'Gestalte drei Retro-Plakate für eine Kaffeerösterei', posters: 3, change: 'Mach das zweite Plakat wärmer' },
  { text: 'Crée quatre affiches rétro pour une marque de café', posters: 4, change: 'Rends la deuxième affiche plus chaude' },
  { text: 'Diseña dos carteles retro para una marca de café', posters: 2, change: 'Haz el segundo cartel más cálido' },
  { text: '为一个咖啡品牌设计四张复古海报', posters: 4, change: '把第二张海报的颜色改得更暖一些' },
  { text: 'コーヒーブランドのレトロなポスターを3枚作って', posters: 3, change: '2枚目のポスターをもっと暖かい色にして' },
];

/** A series, and the revision sent while its plan card waits, with the number of posters it asks for. */
export const SERIES_THEN_REVISION: readonly { text: string; revise: string; posters: number }[] = [
  { text: 'make three retro posters for a coffee brand', revise: 'actually make it five posters', posters: 5 },
  { text: 'design five retro posters for a roastery', revise: 'actually make it three posters', posters: 3 },
  { text: 'design four vintage posters for a tea house', revise: 'actually make it two posters', posters: 2 },
];

/** Two pieces of work at once, then a message that could be about either. */
export const AMBIGUOUS_CHANGE: readonly string[] = ['make that one blue'];

/** A series, and a question about how it is going (same language), naming it loosely. */
export const SERIES_THEN_STATUS: readonly { text: string; ask: string }[] = [
  { text: 'design four vintage posters for a tea house', ask: 'how are the tea house posters going?' },
  { text: 'Gestalte vier Plakate für einen Teeladen', ask: 'wie weit ist das Plakat?' },
  { text: 'Crée trois affiches pour un salon de thé', ask: "où en est l'affiche ?" },
  { text: 'Diseña cuatro carteles para una tienda de té', ask: '¿cómo va el cartel?' },
  { text: '给茶馆设计三张复古海报', ask: '海报做得怎么样了？' },
  { text: 'お茶屋さんのポスターを4枚作って', ask: 'ポスターはどうなった？' },
];

/** A series, and a casual stop (same language). */
export const SERIES_THEN_STOP: readonly { text: string; stop: string }[] = [
  { text: 'design four vintage posters for a tea house', stop: 'stop the tea house posters' },
  { text: 'Gestalte vier Plakate für einen Teeladen', stop: 'hör auf mit dem Plakat' },
  { text: 'Crée trois affiches pour un salon de thé', stop: "arrête l'affiche" },
  { text: 'Diseña cuatro carteles para una tienda de té', stop: 'para el cartel' },
  { text: '给茶馆设计三张复古海报', stop: '别做海报了' },
  { text: 'お茶屋さんのポスターを4枚作って', stop: 'ポスターを止めて' },
];

const LIVE: JobStatus[] = ['SUBMITTING', 'QUEUED', 'RUNNING', 'UNKNOWN'];
const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'];

/** The API as a client calls it, for mutations the harness does not wrap. */
async function api<T>(ctx: ScenarioContext, query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${ctx.t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', authorization: `Bearer ${ctx.t.a.ownerToken}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors[0]!.message);
  return body.data!;
}
const raw = (gid: string) => Buffer.from(gid, 'base64').toString('utf8').split(':').slice(1).join(':');
let keys = 0;
const key = (p: string) => `${p}-${Date.now()}-${++keys}`;

/** Moves a task's (and its messages') clock back by `days`. */
async function daysAgo(ctx: ScenarioContext, taskId: string, days: number) {
  const ms = days * 24 * 3600_000;
  const prisma = ctx.t.app.deps.prisma;
  await prisma.$executeRawUnsafe(
    `UPDATE tasks SET created_at = created_at - $2::int * interval '1 millisecond', updated_at = updated_at - $2::int * interval '1 millisecond',
            ended_at = ended_at - $2::int * interval '1 millisecond', last_activity_at = last_activity_at - $2::int * interval '1 millisecond' WHERE id = $1::uuid`,
    taskId,
    ms,
  );
  await prisma.$executeRawUnsafe(`UPDATE messages SET created_at = created_at - $2::int * interval '1 millisecond' WHERE task_id = $1::uuid`, taskId, ms);
}

async function atRest(ctx: ScenarioContext, taskId: string) {
  const prisma = ctx.t.app.deps.prisma;
  await waitFor(
    async () =>
      (await prisma.turn.count({ where: { taskId, status: { in: ['QUEUED', 'RUNNING'] } } })) === 0 &&
      (await prisma.generationJob.count({ where: { taskId, status: { in: LIVE } } })) === 0,
    `task ${taskId} to be at rest`,
    { timeoutMs: 120_000, intervalMs: 100 },
  );
}

export const CONTINUITY_SCENARIOS: Scenario[] = [
  {
    name: 'iterate on a delivered series days later',
    async run(ctx) {
      const prisma = ctx.t.app.deps.prisma;
      const req = ctx.pick(SERIES_THEN_CHANGE);
      const first = await ctx.say(req.text, 'new');
      assert.ok(first, 'a task was created');
      assert.equal(await ctx.settle(first, person('c2'), { expectCards: { PLAN: 1, CHECKPOINT: 1 } }), 'COMPLETED');
      await atRest(ctx, first);
      const c1 = await readChecklist(prisma, first);
      const posters = c1!.items.filter((i) => i.kind === 'IMAGE' && i.count === 1);
      assert.equal(posters.length, req.posters, 'the series was delivered');
      const poster2 = posters[1]!.artifacts[0]!;
      await daysAgo(ctx, first, 5);
      const delivered = await prisma.task.findUniqueOrThrow({ where: { id: first } });

      // Five days later, in the thread, with no task named: the change to one poster.
      const askedAt = new Date();
      const next = await ctx.say(req.change, 'any');
      assert.ok(next, 'the change went to a task');
      assert.notEqual(next, first, 'the delivered round is not written to');
      const round2 = await prisma.task.findUniqueOrThrow({ where: { id: next } });
      assert.deepEqual([round2.round, round2.previousRoundId, round2.lineId], [2, first, first], 'a next round of the same line of work');
      assert.equal(await ctx.settle(next, person(), { expectCards: {} }), 'COMPLETED');
      await atRest(ctx, next);

      // Only the change: one image step, from the earlier poster 2, made once.
      const c2 = await readChecklist(prisma, next);
      assert.deepEqual(c2!.items.map((i) => [i.kind, i.status, i.artifacts.length]), [['IMAGE', 'DONE', 1]], 'one new step with its result');
      const jobs = await prisma.generationJob.findMany({ where: { taskId: next } });
      assert.equal(jobs.filter((j) => j.status === 'SUCCEEDED').length, 1, 'one new generation');
      assert.ok(jobs.every((j) => j.kind === 'IMAGE' && (j.params as { referenceId?: string }).referenceId === poster2), 'made from the earlier poster 2');
      assert.equal(await prisma.generationJob.count({ where: { taskId: first, createdAt: { gte: askedAt } } }), 0, 'nothing new ordered for the delivered round');
      const after = await prisma.task.findUniqueOrThrow({ where: { id: first } });
      assert.deepEqual([after.status, after.lastEventSeq], [delivered.status, delivered.lastEventSeq], 'the delivered round is untouched');
      return { prompt: req.text, change: req.change, daysLater: 5, round: round2.round, newJobs: jobs.length };
    },
  },
  {
    name: 'a clarification answered',
    async run(ctx) {
      const prisma = ctx.t.app.deps.prisma;
      const first = await ctx.say('make three retro posters for a coffee brand', 'new');
      const second = await ctx.say('design four vintage posters for a tea house', 'new');
      assert.ok(first && second && first !== second, 'two tasks');
      // Both plans wait; then a message that could be for either.
      await waitFor(async () => (await prisma.approval.count({ where: { taskId: { in: [first, second] }, kind: 'PLAN', status: 'PENDING' } })) === 2, 'both plans to wait', { timeoutMs: 60_000, intervalMs: 100 });
      const text = ctx.pick(AMBIGUOUS_CHANGE);
      ctx.metrics.messages++;
      const sent = await api<{ sendMessage: { message: { id: string }; task: { id: string } | null; card: { id: string; options: { id: string; label: string; action: string; task: { id: string } | null }[] } | null } }>(
        ctx,
        `mutation($input: SendMessageInput!) { sendMessage(input: $input) { message { id } task { id } card { id options { id label action task { id } } } } }`,
        { input: { workspaceId: toGlobalId('Workspace', ctx.t.a.workspaceId), text, idempotencyKey: key('msg') } },
      );
      const card = sent.sendMessage.card;
      assert.ok(card && !sent.sendMessage.task, 'the thread asks which task the message is for');
      const option = card.options.find((o) => o.task && raw(o.task.id) === second);
      assert.ok(option, `the tea house task is offered: ${card.options.map((o) => o.label).join(' | ')}`);
      const answered = await api<{ answerCard: { task: { id: string } | null; message: { id: string } } }>(
        ctx,
        `mutation($input: AnswerCardInput!) { answerCard(input: $input) { task { id } message { id } } }`,
        { input: { cardId: card.id, optionId: option.id, idempotencyKey: key('answer') } },
      );
      assert.equal(answered.answerCard.task && raw(answered.answerCard.task.id), second, 'the answer names the task chosen');
      // The message that raised the card went there in its own words; the label went nowhere.
      const message = await prisma.message.findUniqueOrThrow({ where: { id: raw(sent.sendMessage.message.id) } });
      assert.deepEqual([message.text, message.taskId], [text, second]);
      assert.equal(await prisma.inboxItem.count({ where: { taskId: second, text } }), 1, 'the task received the original request once');
      assert.equal(await prisma.inboxItem.count({ where: { taskId: first, text } }), 0, 'the other task received nothing');
      assert.equal(await prisma.message.count({ where: { text: option.label } }), 0, 'no message carries the label');
      assert.equal(await prisma.task.count({ where: { workspaceId: ctx.t.a.workspaceId } }), 2, 'no task was made from the label');
      // Both pieces of work go on to the end.
      const [a, b] = await Promise.all([ctx.settle(first, person(), { expectCards: { PLAN: 1, CHECKPOINT: 1 } }), ctx.settle(second, person(), { expectCards: { PLAN: 2, CHECKPOINT: 1 } })]);
      assert.deepEqual([a, b], ['COMPLETED', 'COMPLETED']);
      return { message: text, options: card.options.length };
    },
  },
  {
    name: 'revise while the plan card waits',
    async run(ctx) {
      const prisma = ctx.t.app.deps.prisma;
      const req = ctx.pick(SERIES_THEN_REVISION);
      const task = await ctx.say(req.text, 'new');
      assert.ok(task);
      // The person reads the plan and does not answer it: a change of mind comes first.
      const waiting = () => prisma.approval.findFirst({ where: { taskId: task, kind: 'PLAN', status: 'PENDING' } });
      await ctx.settle(task, (c) => (c.kind === 'PLAN' ? null : { decision: 'APPROVE' }), { expectCards: { PLAN: 1 }, until: async () => (await waiting()) !== null });
      const plan = (await waiting())!;
      await ctx.signal(task, 'REVISE', req.revise);
      await waitFor(async () => (await prisma.approval.findUniqueOrThrow({ where: { id: plan.id } })).status === 'SUPERSEDED', 'the plan card to be set aside', { timeoutMs: 30_000, intervalMs: 50 });
      const setAside = await prisma.approval.findUniqueOrThrow({ where: { id: plan.id } });
      assert.ok(setAside.note?.includes(req.revise), `the card names the revision: ${setAside.note}`);
      const events = await prisma.taskEvent.findMany({ where: { taskId: task, type: 'APPROVAL_RESOLVED' } });
      assert.ok(events.some((e) => (e.payload as { approvalId?: string; status?: string }).approvalId === plan.id && (e.payload as { status?: string }).status === 'SUPERSEDED'), 'the timeline records it');
      // A new plan card, for the revised plan; the person approves it and the series is made as revised.
      const status = await ctx.settle(task, person(), { expectCards: { PLAN: 1, CHECKPOINT: 1 } });
      assert.equal(status, 'COMPLETED');
      const plans = await prisma.approval.findMany({ where: { taskId: task, kind: 'PLAN' }, orderBy: { createdAt: 'asc' } });
      assert.deepEqual(plans.map((p) => p.status), ['SUPERSEDED', 'APPROVED'], 'one new plan card');
      assert.ok(plans[1]!.createdAt >= setAside.resolvedAt!, 'asked after the revision');
      const c = await readChecklist(prisma, task);
      const posters = c!.items.filter((i) => i.kind === 'IMAGE' && i.count === 1);
      assert.equal(posters.length, req.posters, `the revised series has ${req.posters} posters`);
      assert.ok(c!.items.every((i) => i.status === 'DONE' || i.status === 'SKIPPED'));
      const early = await prisma.generationJob.count({ where: { taskId: task, createdAt: { lt: plans[1]!.resolvedAt! } } });
      assert.equal(early, 0, 'nothing was generated before the revised plan was approved');
      assert.ok(TERMINAL.includes(await ctx.status(task)));
      return { prompt: req.text, revise: req.revise, posters: posters.length };
    },
  },
  {
    name: 'a status question',
    async run(ctx) {
      const prisma = ctx.t.app.deps.prisma;
      const req = ctx.pick(SERIES_THEN_STATUS);
      const task = await ctx.say(req.text, 'new');
      assert.ok(task);
      // The plan waits for the person; the task is at rest.
      await waitFor(async () => (await prisma.approval.count({ where: { taskId: task, kind: 'PLAN', status: 'PENDING' } })) === 1, 'the plan to wait', { timeoutMs: 60_000, intervalMs: 50 });
      await atRest(ctx, task);
      const footprint = async () => ({
        inbox: await prisma.inboxItem.count({ where: { taskId: task } }),
        turns: await prisma.turn.count({ where: { taskId: task } }),
        steps: await prisma.step.count({ where: { taskId: task } }),
        events: (await prisma.task.findUniqueOrThrow({ where: { id: task } })).lastEventSeq,
      });
      const before = await footprint();
      ctx.metrics.messages++;
      const r = await api<{ sendMessage: { message: { delivery: { state: string } | null }; route: { outcome: string; task: { id: string } | null }; task: { id: string } | null; reply: { text: string } | null } }>(
        ctx,
        `mutation($input: SendMessageInput!) { sendMessage(input: $input) { message { delivery { state } } route { outcome task { id } } task { id } reply { text } } }`,
        { input: { workspaceId: toGlobalId('Workspace', ctx.t.a.workspaceId), text: req.ask, idempotencyKey: key('msg') } },
      );
      const s = r.sendMessage;
      assert.equal(s.route.task && raw(s.route.task.id), task, 'the question is about the task named');
      assert.ok(s.reply?.text, 'the thread answers');
      const title = (await prisma.task.findUniqueOrThrow({ where: { id: task } })).title;
      assert.ok(s.reply.text.includes(title.slice(0, 12)), `the answer names the task: ${s.reply.text}`);
      assert.equal(s.message.delivery, null, 'not delivered to the task');
      assert.deepEqual(await footprint(), before, 'the task was not woken: no inbox item, turn, step or event');
      assert.equal(await prisma.task.count({ where: { workspaceId: ctx.t.a.workspaceId } }), 1, 'no task was started');
      // The work goes on as if nothing was asked.
      assert.equal(await ctx.settle(task, person(), { expectCards: { PLAN: 1, CHECKPOINT: 1 } }), 'COMPLETED');
      return { prompt: req.text, ask: req.ask };
    },
  },
  {
    name: 'a casual cancel',
    async run(ctx) {
      const prisma = ctx.t.app.deps.prisma;
      const req = ctx.pick(SERIES_THEN_STOP);
      const task = await ctx.say(req.text, 'new');
      assert.ok(task);
      // Paid work: the plan is approved and the candidates are made; the pick waits.
      const pick = () => prisma.approval.findFirst({ where: { taskId: task, kind: 'CHECKPOINT', status: 'PENDING' } });
      await ctx.settle(task, (c) => (c.kind === 'CHECKPOINT' ? null : { decision: 'APPROVE' }), { expectCards: { PLAN: 1, CHECKPOINT: 1 }, until: async () => (await pick()) !== null });
      await atRest(ctx, task);
      ctx.metrics.messages++;
      const r = await api<{ sendMessage: { route: { task: { id: string } | null }; card: { id: string; options: { id: string; label: string }[] } | null; reply: { text: string } | null } }>(
        ctx,
        `mutation($input: SendMessageInput!) { sendMessage(input: $input) { route { task { id } } card { id options { id label } } reply { text } } }`,
        { input: { workspaceId: toGlobalId('Workspace', ctx.t.a.workspaceId), text: req.stop, idempotencyKey: key('msg') } },
      );
      const s = r.sendMessage;
      assert.equal(s.route.task && raw(s.route.task.id), task, 'the stop names the task');
      assert.ok(s.card, `paid work would be abandoned: the thread asks first (${s.reply?.text})`);
      assert.notEqual(await ctx.status(task), 'CANCELLED', 'nothing happens before the answer');
      assert.equal(await prisma.inboxItem.count({ where: { taskId: task, kind: 'SIGNAL', signal: 'CANCEL' } }), 0, 'no stop signal before the answer');
      const stop = s.card.options.find((o) => o.id === 'stop');
      assert.ok(stop, `a stop option: ${s.card.options.map((o) => `${o.id}=${o.label}`).join(', ')}`);
      await api(ctx, `mutation($input: AnswerCardInput!) { answerCard(input: $input) { task { id status } } }`, { input: { cardId: s.card.id, optionId: stop.id, idempotencyKey: key('answer') } });
      const stoppedAt = new Date();
      await waitFor(async () => (await ctx.status(task)) === 'CANCELLED', 'the task to be cancelled', { timeoutMs: 60_000, intervalMs: 50 });
      await atRest(ctx, task);
      assert.equal(await prisma.inboxItem.count({ where: { taskId: task, kind: 'SIGNAL', signal: 'CANCEL' } }), 1, 'one stop signal');
      assert.equal(await prisma.inboxItem.count({ where: { taskId: task, kind: 'MESSAGE', text: req.stop } }), 0, 'the words were not delivered as an instruction');
      assert.equal(await prisma.turn.count({ where: { taskId: task, createdAt: { gt: stoppedAt } } }), 0, 'no turn after the stop');
      assert.equal(await prisma.approval.count({ where: { taskId: task, status: 'PENDING' } }), 0, 'nothing left waiting');
      return { prompt: req.text, stop: req.stop };
    },
  },
];
