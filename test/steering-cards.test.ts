// Steering at a waiting card: while a task waits on a plan, a pick or a price card, a REVISE, an
// ADD_CONTEXT or a message routed to the task answers the moment instead. The card is SUPERSEDED
// (final, with the instruction as its reason, visible in the API and the task's events), the task
// wakes, its next step reads the instruction, and a new card is raised when one is still needed.
// Nothing is ordered for a superseded price; a superseded card cannot be resolved afterwards.
// The agent is the product's offline model; turns are run one at a time here.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Viewer } from '../server/auth/viewer.ts';
import { detectLanguage } from '../server/domain/language.ts';
import { textsFor } from '../server/domain/replies/texts.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import type { BaseMessage } from '@langchain/core/messages';
import { runTurn } from '../server/runtime/engine.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { signalTask } from '../server/services/tasks/signal-task.ts';
import { readChecklist } from '../server/store/checklist/write-checklist.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { milestone } from '../web/lib/timeline.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { SendMessage, SignalTask } from './helpers/documents.ts';
import { eventually } from './helpers/produce.ts';

const Resolve = graphql(`
  mutation SteeringResolve($input: ResolveApprovalInput!) {
    resolveApproval(input: $input) { approval { id status } }
  }
`);
const TaskCards = graphql(`
  query SteeringCards($id: ID!) {
    task(id: $id) { status approvals(first: 20) { edges { node { id kind status note } } } }
  }
`);

let t: TestApp;
let dir: string;
let viewer: Viewer;
let n = 0;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-steering-'));
  t = await startTestApp('steering', {}, { provider: new SimulatedProvider({ filesDir: dir, latencyMs: { IMAGE: 50 } }) });
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]), principal: 'HUMAN' };
});
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const prisma = () => t.app.deps.prisma;
const task = (id: string) => prisma().task.findUniqueOrThrow({ where: { id } });
const cards = (taskId: string, kind: 'PLAN' | 'CHECKPOINT' | 'PAID_ACTION') => prisma().approval.findMany({ where: { taskId, kind }, orderBy: { createdAt: 'asc' } });

async function start(title: string) {
  return (await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title })).id;
}
async function runQueued(taskId: string) {
  const turn = await prisma().turn.findFirstOrThrow({ where: { taskId, status: 'QUEUED' } });
  return (await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' })).outcome;
}
const signal = (taskId: string, s: 'REVISE' | 'ADD_CONTEXT', text: string) =>
  gqlOk(t.url, t.a.ownerToken, SignalTask, { input: { taskId: toGlobalId('Task', taskId), signal: s, text, idempotencyKey: `s-${++n}` } });
const resolve = (approvalId: string, decision: 'APPROVE' | 'REJECT', choice?: string) =>
  gql(t.url, t.a.ownerToken, Resolve, { input: { approvalId: toGlobalId('Approval', approvalId), decision, idempotencyKey: `r-${++n}`, ...(choice ? { choice } : {}) } });
const supersededEvents = async (taskId: string) =>
  (await prisma().taskEvent.findMany({ where: { taskId, type: 'APPROVAL_RESOLVED' }, orderBy: { seq: 'asc' } }))
    .map((e) => e.payload as { approvalId: string; status: string; note?: string; instruction?: { kind: string; text: string; inboxItemId: string } })
    .filter((p) => p.status === 'SUPERSEDED');

/** The card is set aside by the instruction, visibly, and the task is queued to read it. */
async function assertSetAside(taskId: string, cardId: string, kind: string, text: string) {
  const card = await prisma().approval.findUniqueOrThrow({ where: { id: cardId } });
  assert.equal(card.status, 'SUPERSEDED', `the ${kind} card is set aside`);
  assert.ok(card.resolvedAt);
  assert.ok(card.note?.includes(text), `its note names the instruction: ${card.note}`);
  const view = await gqlOk(t.url, t.a.ownerToken, TaskCards, { id: toGlobalId('Task', taskId) });
  const shown = view.task!.approvals.edges.map((e) => e.node).find((a) => a.id === toGlobalId('Approval', cardId));
  assert.equal(shown?.status, 'SUPERSEDED', 'visible in the API');
  const [event] = (await supersededEvents(taskId)).filter((p) => p.approvalId === cardId);
  assert.deepEqual([event?.instruction?.kind, event?.instruction?.text], [kind, text], 'the timeline has the event, with the instruction');
  const item = await prisma().inboxItem.findUniqueOrThrow({ where: { id: event!.instruction!.inboxItemId } });
  assert.equal(item.text, text);
  assert.equal((await task(taskId)).status, 'QUEUED', 'the task wakes');
  assert.equal(await prisma().turn.count({ where: { taskId, status: 'QUEUED' } }), 1);
  // Final like any decision: resolving it afterwards is a clear conflict and changes nothing.
  const late = await resolve(cardId, 'APPROVE', card.options ? (card.options as { id: string }[])[0]?.id : undefined);
  assert.equal(late.errors?.[0]?.extensions?.code, 'CONFLICT');
  assert.equal(late.errors?.[0]?.extensions?.reason, 'APPROVAL_SUPERSEDED');
  assert.equal((await prisma().approval.findUniqueOrThrow({ where: { id: cardId } })).status, 'SUPERSEDED');
}

describe('an instruction that arrives while a card waits supersedes it', () => {
  test('REVISE while the plan waits: the card is set aside, the task re-plans with the revision and asks about the new plan', async () => {
    const id = await start('make three retro posters for a coffee brand');
    assert.equal(await runQueued(id), 'suspended', 'the first plan waits for approval');
    const [plan] = await cards(id, 'PLAN');
    assert.equal(plan?.status, 'PENDING');
    assert.equal((await task(id)).status, 'WAITING');

    await signal(id, 'REVISE', 'actually make it five posters');
    await assertSetAside(id, plan!.id, 'REVISE', 'actually make it five posters');
    // The web timeline says it in plain words.
    const event = await prisma().taskEvent.findFirstOrThrow({ where: { taskId: id, type: 'APPROVAL_RESOLVED' }, orderBy: { seq: 'desc' } });
    const said = milestone({ seq: event.seq, type: event.type, occurredAt: event.occurredAt.toISOString(), redacted: false, payload: event.payload, actor: { kind: 'USER', user: { name: 'Owner' } } });
    assert.equal(said?.text, 'Set aside the plan card: your revision (“actually make it five posters”) came first — going on with it');

    assert.equal(await runQueued(id), 'suspended', 'the new plan waits for approval');
    const plans = await cards(id, 'PLAN');
    assert.deepEqual(plans.map((p) => p.status), ['SUPERSEDED', 'PENDING'], 'one new plan card, the old one set aside');
    assert.match(plans[1]!.title, /Plan: 7 steps/);
    const checklist = await readChecklist(prisma(), id);
    assert.deepEqual(checklist!.items.filter((i) => /^Poster/.test(i.title)).map((i) => i.title), ['Poster 1', 'Poster 2', 'Poster 3', 'Poster 4', 'Poster 5']);
    // The replayed call reported the card as set aside (no second wait), and a step read the revision.
    const calls = await prisma().toolCall.findMany({ where: { taskId: id, name: 'plan_checklist' }, orderBy: { startedAt: 'asc' } });
    assert.equal((calls[0]!.result as { status: string }).status, 'SUPERSEDED');
    const revise = await prisma().inboxItem.findFirstOrThrow({ where: { taskId: id, signal: 'REVISE' } });
    assert.ok(revise.consumedAt, 'the revision was read by a step');
    assert.equal(await prisma().generationJob.count({ where: { taskId: id } }), 0, 'nothing is spent before the new plan is approved');
    assert.equal((await resolve(plans[1]!.id, 'APPROVE')).errors, undefined, 'the new card is answered as usual');
  });

  test('ADD_CONTEXT while the pick waits: the pick is set aside and asked again with the context read', async () => {
    const id = await start('make three retro posters for a tea shop');
    assert.equal(await runQueued(id), 'suspended');
    const [plan] = await cards(id, 'PLAN');
    assert.equal((await resolve(plan!.id, 'APPROVE')).errors, undefined);
    assert.equal(await runQueued(id), 'suspended', 'generating the candidates');
    for (let i = 0; i < 3 && (await cards(id, 'CHECKPOINT')).length === 0; i++) {
      await eventually(async () => (await task(id)).status === 'QUEUED', `woken by the candidates (now ${(await task(id)).status})`, 20_000);
      await runQueued(id);
    }
    const [pick] = await cards(id, 'CHECKPOINT');
    assert.equal(pick?.status, 'PENDING', 'the pick card waits');
    assert.equal((pick!.options as unknown[]).length, 3);
    const jobs = await prisma().generationJob.count({ where: { taskId: id } });

    await signal(id, 'ADD_CONTEXT', 'the shop’s colour is jade green');
    await assertSetAside(id, pick!.id, 'ADD_CONTEXT', 'the shop’s colour is jade green');

    assert.equal(await runQueued(id), 'suspended', 'the pick is asked again');
    const picks = await cards(id, 'CHECKPOINT');
    assert.deepEqual(picks.map((p) => p.status), ['SUPERSEDED', 'PENDING']);
    assert.deepEqual(picks[1]!.options, pick!.options, 'the same candidates');
    const context = await prisma().inboxItem.findFirstOrThrow({ where: { taskId: id, signal: 'ADD_CONTEXT' } });
    assert.ok(context.consumedAt, 'the context was read by a step');
    assert.equal(await prisma().generationJob.count({ where: { taskId: id } }), jobs, 'nothing generated twice');
  });

  test('a message routed to the task while a price waits: nothing is ordered for it; the next order asks again; one charge in the end', async () => {
    const id = await start('a single image of a lighthouse at dusk');
    // Every paid action of this task is confirmed by a person.
    await prisma().task.update({ where: { id }, data: { autonomy: 'MANUAL' } });
    for (let i = 0; i < 3 && (await cards(id, 'PAID_ACTION')).length === 0; i++) await runQueued(id);
    const [price] = await cards(id, 'PAID_ACTION');
    assert.equal(price?.status, 'PENDING', 'the price card waits');
    assert.equal((await task(id)).status, 'WAITING');

    const sent = (await gqlOk(t.url, t.a.ownerToken, SendMessage, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), taskId: toGlobalId('Task', id), text: 'with a red roof, please', idempotencyKey: `m-${++n}` } })).sendMessage;
    assert.deepEqual([sent.route.outcome, sent.task?.id], ['EXISTING_TASK', toGlobalId('Task', id)]);
    await assertSetAside(id, price!.id, 'MESSAGE', 'with a red roof, please');
    assert.equal(await prisma().generationJob.count({ where: { taskId: id } }), 0, 'nothing ordered for the superseded price');

    assert.equal(await runQueued(id), 'suspended', 'the next order asks for the price again');
    const prices = await cards(id, 'PAID_ACTION');
    assert.deepEqual(prices.map((p) => p.status), ['SUPERSEDED', 'PENDING']);
    const message = await prisma().inboxItem.findFirstOrThrow({ where: { taskId: id, kind: 'MESSAGE' } });
    assert.ok(message.consumedAt, 'the message was read by a step');
    const calls = await prisma().toolCall.findMany({ where: { taskId: id, name: 'generate_image' }, orderBy: { startedAt: 'asc' } });
    assert.equal((calls[0]!.result as { status: string }).status, 'SUPERSEDED');
    assert.equal(await prisma().generationJob.count({ where: { taskId: id } }), 0);

    assert.equal((await resolve(prices[1]!.id, 'APPROVE')).errors, undefined);
    for (let i = 0; i < 4 && (await task(id)).status !== 'COMPLETED'; i++) {
      await eventually(async () => ['QUEUED', 'COMPLETED'].includes((await task(id)).status), `woken or done (now ${(await task(id)).status})`, 20_000);
      if ((await task(id)).status === 'QUEUED') await runQueued(id);
    }
    assert.equal((await task(id)).status, 'COMPLETED', 'exactly one terminal state, reached');
    assert.equal(await prisma().generationJob.count({ where: { taskId: id } }), 1, 'one order');
    const holds = await prisma().ledgerEntry.count({ where: { taskId: id, kind: 'HOLD' } });
    const charges = await prisma().ledgerEntry.count({ where: { taskId: id, kind: 'CHARGE' } });
    assert.deepEqual([holds, charges], [1, 1], 'one hold, one charge');
  });

  test('a German task: the price card gives its reasons in German, and the card set aside says so in German', async () => {
    const de = textsFor('de');
    const id = await start('Ein Bild von einem Leuchtturm in der Abenddämmerung');
    await prisma().task.update({ where: { id }, data: { autonomy: 'MANUAL', language: 'de' } });
    for (let i = 0; i < 3 && (await cards(id, 'PAID_ACTION')).length === 0; i++) await runQueued(id);
    const [price] = await cards(id, 'PAID_ACTION');
    assert.equal(price?.status, 'PENDING', 'the price card waits');
    const reasons = price!.reasons as { code: string; message: string }[];
    assert.equal(reasons.find((r) => r.code === 'AUTONOMY_MANUAL')?.message, de.approvalReason({ code: 'AUTONOMY_MANUAL' }));
    for (const r of reasons) assert.equal(detectLanguage(r.message).language, 'de', r.message);

    await signal(id, 'ADD_CONTEXT', 'mit rotem Dach, bitte');
    await assertSetAside(id, price!.id, 'ADD_CONTEXT', 'mit rotem Dach, bitte');
    const note = (await prisma().approval.findUniqueOrThrow({ where: { id: price!.id } })).note;
    assert.equal(note, 'Zurückgestellt durch den Kontext, den du ergänzt hast: „mit rotem Dach, bitte“');
    assert.equal(detectLanguage(note!).language, 'de');
    const [event] = (await supersededEvents(id)).filter((p) => p.approvalId === price!.id);
    assert.equal(event?.note, note, 'the timeline event carries the same German note');
  });

  test('an instruction with nothing waiting supersedes nothing; irreversible cards are left alone', async () => {
    const id = await start('write a short brief for a bakery');
    const irreversible = await prisma().approval.create({
      data: {
        workspaceId: t.a.workspaceId,
        taskId: id,
        kind: 'IRREVERSIBLE',
        title: 'Delete the old draft',
        action: { type: 'DELETE_OBJECT', objectId: 'x' },
        reasons: [],
        requestKey: `test-irreversible:${id}`,
        requestedByKind: 'AGENT',
      },
    });
    await signal(id, 'REVISE', 'make it shorter');
    assert.equal((await prisma().approval.findUniqueOrThrow({ where: { id: irreversible.id } })).status, 'PENDING');
    assert.deepEqual(await supersededEvents(id), []);
  });
});

describe('an instruction that arrives while the step that files the card is running', () => {
  // The step read the inbox before the instruction came; the card it files was asked without it.
  let r: TestApp;
  let taskId = '';
  let me: Viewer;
  let revised = false;
  const model = new ScriptedChatModel(async ({ messages }) => {
    const all = (messages as BaseMessage[]).map((m) => String(m.content)).join('\n');
    if (!all.includes('[checklist v')) {
      if (!revised) {
        revised = true;
        await signalTask(r.app.deps, me, { taskId, signal: 'REVISE', text: 'only warm colours', idempotencyKey: 'during-the-step' });
      }
      return { content: 'plan', toolCalls: [{ name: 'plan_checklist', args: { items: [{ id: 'a', title: 'Image A', kind: 'IMAGE' }, { id: 'b', title: 'Image B', kind: 'IMAGE' }] } }] };
    }
    return { content: all.includes('[revise from the user] only warm colours') ? 'read it' : 'nothing new' };
  });
  before(async () => {
    r = await startTestApp('steering-race', {}, { models: scriptedProvider(model), provider: new SimulatedProvider({ filesDir: dir, latencyMs: { IMAGE: 50 } }) });
  });
  after(async () => {
    await r.close();
  });

  test('the card filed without it is set aside when the turn suspends, and the task goes on to read it', async () => {
    me = { ...viewer, userId: r.a.ownerId, memberships: new Map([[r.a.workspaceId, 'OWNER']]) };
    taskId = (await createTask(r.app.deps, me, { workspaceId: r.a.workspaceId, title: 'two images of a harbour' })).id;
    const turn = await r.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId, status: 'QUEUED' } });
    const outcome = (await runTurn(r.app.deps.runtime, turn.id, { workerId: 'w' })).outcome;
    assert.equal(outcome, 'suspended', (await r.app.deps.prisma.task.findUniqueOrThrow({ where: { id: taskId } })).statusReason ?? '');
    const [plan] = await r.app.deps.prisma.approval.findMany({ where: { taskId, kind: 'PLAN' } });
    assert.equal(plan?.status, 'SUPERSEDED', 'not left waiting with the revision unread behind it');
    assert.match(plan!.note ?? '', /only warm colours/);
    assert.equal((await r.app.deps.prisma.task.findUniqueOrThrow({ where: { id: taskId } })).status, 'QUEUED');
    assert.equal(await r.app.deps.prisma.turn.count({ where: { taskId, status: 'QUEUED' } }), 1);
  });
});
