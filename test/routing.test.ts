// The main thread: deterministic routes first, the offline router second (bounded index, CLARIFY
// rather than a wrong guess), duplicate check, cards, validation before execution, withdraw/replace,
// and the task's language.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildWorkerInput } from '../server/runtime/context.ts';
import { routeOffline } from '../server/routing/offline-router.ts';
import { loadTaskIndex } from '../server/routing/task-index.ts';
import { INDEX_MAX, INDEX_NAME_CHARS, INDEX_NAMES } from '../server/routing/types.ts';
import { duplicateCheck } from '../server/services/messages/route-message.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { ManageTasks, MergeTasks, PromoteTask, ReplaceMessage, RerouteMessage, SendMessage, TaskKindList, WithdrawMessage } from './helpers/documents.ts';
import { fromGlobalId } from './helpers/ids.ts';

let t: TestApp;
let ws: string;
let n = 0;
const key = () => `k-${++n}`;

before(async () => {
  t = await startTestApp('routing');
  ws = toGlobalId('Workspace', t.a.workspaceId);
});
after(async () => {
  await t.close();
});

const send = (text: string, extra: Record<string, unknown> = {}, token = t.a.ownerToken) =>
  gql(t.url, token, SendMessage, { input: { workspaceId: ws, text, idempotencyKey: key(), ...extra } });
const sendOk = async (text: string, extra: Record<string, unknown> = {}) => {
  const r = await send(text, extra);
  if (r.errors || !r.data) throw new Error(JSON.stringify(r.errors));
  return r.data.sendMessage;
};
async function makeTask(title: string, status = 'RUNNING', extra: Record<string, unknown> = {}) {
  return t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title, goal: title, status: status as 'RUNNING', ...extra } });
}

describe('deterministic routes', () => {
  test('a message sent from a task goes to that task by code; the same key never creates a second message', async () => {
    const task = await makeTask('Brochure for the museum');
    const input = { workspaceId: ws, text: 'use the darker logo', taskId: toGlobalId('Task', task.id), idempotencyKey: 'fixed-key' };
    const a = (await gqlOk(t.url, t.a.ownerToken, SendMessage, { input })).sendMessage;
    const b = (await gqlOk(t.url, t.a.ownerToken, SendMessage, { input })).sendMessage;
    assert.equal(a.route.outcome, 'EXISTING_TASK');
    assert.equal(a.route.method, 'DETERMINISTIC');
    assert.equal(a.route.indexSize, 0, 'no index, no model');
    assert.equal(a.task?.id, toGlobalId('Task', task.id));
    assert.equal(a.message.delivery?.state, 'DELIVERED');
    assert.equal(b.duplicate, true);
    assert.equal(b.message.id, a.message.id);
    assert.equal(await t.app.deps.prisma.message.count({ where: { idempotencyKey: 'client:fixed-key' } }), 1);
    assert.equal(await t.app.deps.prisma.inboxItem.count({ where: { taskId: task.id } }), 1);
    assert.equal(await t.app.deps.prisma.turn.count({ where: { taskId: task.id, status: 'QUEUED' } }), 1, 'a turn will read it');
  });

  test('an object tied to one task routes to it; tied to two, the user is asked', async () => {
    const a = await makeTask('Logo refresh');
    const b = await makeTask('Website hero image');
    // Objects of the workspace (sendMessage takes an object's global id, and only of an object that exists).
    const object = (name: string) =>
      t.app.deps.prisma.workspaceObject.create({ data: { workspaceId: t.a.workspaceId, kind: 'DOCUMENT', name, currentVersion: 1, createdByKind: 'USER', createdById: t.a.ownerId } });
    const [logo, shared] = [await object('Logo'), await object('Shared hero')];
    await t.app.deps.prisma.taskObjectRef.createMany({ data: [{ taskId: a.id, objectId: logo.id }, { taskId: a.id, objectId: shared.id }, { taskId: b.id, objectId: shared.id }] });
    const one = await sendOk('slightly thinner strokes', { objectId: toGlobalId('WorkspaceObject', logo.id) });
    assert.deepEqual([one.route.outcome, one.route.method, one.task?.id], ['EXISTING_TASK', 'DETERMINISTIC', toGlobalId('Task', a.id)]);
    const two = await sendOk('crop it tighter', { objectId: toGlobalId('WorkspaceObject', shared.id) });
    assert.equal(two.route.outcome, 'CLARIFY');
    assert.equal(two.card?.options.filter((o) => o.action === 'continue').length, 2);
  });
});

describe('the offline router', () => {
  test('new work, quick generations and questions', async () => {
    const created = await sendOk('Design a poster series for the spring market, three sizes, pastel colours');
    assert.equal(created.route.outcome, 'NEW_TASK');
    assert.equal(created.route.method, 'RETRIEVAL');
    assert.ok(created.task);
    const row = await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: fromGlobalId(created.task!.id).id } });
    assert.equal(row.kind, 'PERSISTENT');
    assert.equal(row.language, 'en');
    const quick = await sendOk('quick icon of a cat with sunglasses');
    assert.equal(quick.route.outcome, 'LIGHTWEIGHT_TASK');
    assert.equal((await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: fromGlobalId(quick.task!.id).id } })).kind, 'LIGHTWEIGHT');
    const question = await sendOk('what can you do?');
    assert.equal(question.route.outcome, 'ANSWER');
    assert.ok(question.reply?.text);
    const thanks = await sendOk('danke!');
    assert.equal(thanks.route.outcome, 'ANSWER');
  });

  test('a follow-up that names one task goes there; two close candidates get a card, and the pick routes by code', async () => {
    const fair = await makeTask('Autumn fair poster', 'RUNNING', { goal: 'A2 poster for the autumn fair, warm colours', lastActivityAt: new Date(Date.now() - 3 * 86400_000) });
    const follow = await sendOk('make the autumn fair poster warmer');
    assert.equal(follow.route.outcome, 'EXISTING_TASK');
    assert.equal(follow.task?.id, toGlobalId('Task', fair.id));

    const a = await makeTask('Bakery flyer series A', 'RUNNING', { goal: 'flyers for the bakery' });
    const b = await makeTask('Bakery flyer series B', 'RUNNING', { goal: 'flyers for the bakery' });
    const ask = await sendOk('change the bakery flyer font');
    assert.equal(ask.route.outcome, 'CLARIFY', ask.route.reason);
    assert.equal(ask.task, null, 'nothing was delivered to a guessed task');
    const option = ask.card!.options.find((o) => o.task?.id === toGlobalId('Task', b.id))!;
    const picked = await sendOk('change the bakery flyer font', { cardAction: { cardId: ask.card!.id, optionId: option.id } });
    assert.deepEqual([picked.route.outcome, picked.route.method, picked.task?.id], ['EXISTING_TASK', 'DETERMINISTIC', toGlobalId('Task', b.id)]);
    const other = ask.card!.options.find((o) => o.task?.id === toGlobalId('Task', a.id))!;
    const again = await send('x', { cardAction: { cardId: ask.card!.id, optionId: other.id } });
    assert.equal(again.errors?.[0]?.extensions?.code, 'CONFLICT', 'a card is answered once');
  });

  test('duplicate check: a NEW_TASK decision that resembles a running task becomes "continue or create"', async () => {
    const running = await makeTask('Banner: winter solstice celebration', 'RUNNING');
    await makeTask('Banner: spring equinox celebration', 'COMPLETED');
    const decision = { outcome: 'NEW_TASK' as const, method: 'RETRIEVAL' as const, taskId: null, candidates: [], reason: 'new' };
    const checked = await duplicateCheck(t.app.deps, { workspaceId: t.a.workspaceId, text: 'winter solstice celebration banner' }, decision, new Date());
    assert.equal(checked.outcome, 'CLARIFY');
    assert.equal(checked.candidates[0]?.taskId, running.id);
    assert.match(checked.reason, /duplicate/);
    // Finished tasks are not duplicates of new work.
    const fresh = await duplicateCheck(t.app.deps, { workspaceId: t.a.workspaceId, text: 'spring equinox celebration banner' }, decision, new Date());
    assert.equal(fresh.outcome, 'NEW_TASK');
  });

  test('"Start a new task" on a card creates one, by code', async () => {
    await makeTask('Gallery catalogue volume A', 'RUNNING');
    await makeTask('Gallery catalogue volume B', 'RUNNING');
    const ask = await sendOk('update the gallery catalogue cover');
    assert.equal(ask.route.outcome, 'CLARIFY', ask.route.reason);
    const create = ask.card!.options.find((o) => o.action === 'create')!;
    const made = await sendOk('update the gallery catalogue cover', { cardAction: { cardId: ask.card!.id, optionId: create.id } });
    assert.deepEqual([made.route.outcome, made.route.method], ['NEW_TASK', 'DETERMINISTIC']);
    assert.ok(made.task);
  });

  test('a card answered with its button (the label as text) routes the request the card asked about', async () => {
    await makeTask('Harbour festival banner north', 'RUNNING');
    await makeTask('Harbour festival banner south', 'RUNNING');
    const ask = await sendOk('a harbour festival banner for the east pier');
    assert.equal(ask.route.outcome, 'CLARIFY', ask.route.reason);
    const create = ask.card!.options.find((o) => o.action === 'create')!;
    const made = await sendOk(create.label, { cardAction: { cardId: ask.card!.id, optionId: create.id } });
    const task = await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: fromGlobalId(made.task!.id).id } });
    assert.deepEqual([task.title, task.goal], ['a harbour festival banner for the east pier', 'a harbour festival banner for the east pier'], 'the request, not "Start a new task"');
    const inbox = await t.app.deps.prisma.inboxItem.findMany({ where: { taskId: task.id } });
    assert.deepEqual(inbox.map((i) => i.text), ['a harbour festival banner for the east pier']);
    // "Continue …" delivers the request to the task picked.
    const again = await sendOk('a harbour festival banner for the west pier');
    const cont = again.card?.options.find((o) => o.action === 'continue');
    if (cont) {
      const picked = await sendOk(cont.label, { cardAction: { cardId: again.card!.id, optionId: cont.id } });
      const items = await t.app.deps.prisma.inboxItem.findMany({ where: { taskId: fromGlobalId(picked.task!.id).id }, orderBy: { createdAt: 'asc' } });
      assert.equal(items.at(-1)?.text, 'a harbour festival banner for the west pier');
    }
  });

  test('the router input does not grow with the number of tasks (1,000 tasks)', async () => {
    const big = await t.app.deps.prisma.workspace.create({ data: { name: 'Big', slug: 'big' } });
    await t.app.deps.prisma.membership.create({ data: { workspaceId: big.id, userId: t.a.ownerId, role: 'OWNER' } });
    const { createToken } = await import('../server/auth/create-token.ts');
    const tok = (await createToken(t.app.deps.prisma, { workspaceId: big.id, userId: t.a.ownerId, name: 'big', scopes: ['READ', 'WRITE'] })).token;
    const sizes: number[] = [];
    for (const total of [10, 1000]) {
      const have = await t.app.deps.prisma.task.count({ where: { workspaceId: big.id } });
      await t.app.deps.prisma.task.createMany({
        data: Array.from({ length: total - have }, (_, i) => ({ workspaceId: big.id, title: `Task ${have + i} poster variant`, goal: `poster variant number ${have + i} for client ${i % 37}`, status: 'COMPLETED' as const })),
      });
      const r = await gqlOk(t.url, tok, SendMessage, { input: { workspaceId: toGlobalId('Workspace', big.id), text: 'poster variant for client 12 in green', idempotencyKey: `big-${total}` } });
      sizes.push(r.sendMessage.route.indexSize);
    }
    assert.ok(sizes[1]! <= 30, `bounded index (${sizes.join(' → ')})`);
    assert.ok(sizes[1]! - sizes[0]! <= 20, 'grows by at most the bounded retrieval set');
  });
});

describe('validation before execution', () => {
  test('a message for a completed or archived task starts its next round instead of writing into it', async () => {
    const done = await makeTask('Annual report cover', 'COMPLETED', { summary: 'cover v3 delivered' });
    const r = await sendOk('one more version with a photo', { taskId: toGlobalId('Task', done.id) });
    assert.equal(r.route.outcome, 'EXISTING_TASK');
    assert.notEqual(r.task?.id, toGlobalId('Task', done.id));
    assert.equal(r.task!.title, 'Annual report cover', 'the same line of work');
    const next = await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: fromGlobalId(r.task!.id).id } });
    assert.deepEqual([next.previousRoundId, next.round], [done.id, 2]);
    assert.equal((await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: done.id } })).status, 'COMPLETED');
  });

  test('routing never grants rights: read-only tokens and other workspaces are refused', async () => {
    const task = await makeTask('Private thing');
    const ro = await send('hello there', {}, t.a.readToken);
    assert.equal(ro.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    const other = await t.app.deps.prisma.task.create({ data: { workspaceId: t.b.workspaceId, title: 'Beta task' } });
    const cross = await send('take this', { taskId: toGlobalId('Task', other.id) });
    assert.equal(cross.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    assert.equal(await t.app.deps.prisma.inboxItem.count({ where: { taskId: other.id } }), 0);
    void task;
  });
});

describe('inbox: withdraw and replace', () => {
  test('an unread message can be replaced or withdrawn; a read one cannot', async () => {
    const task = await makeTask('Menu card');
    const m = await sendOk('use serif fonts', { taskId: toGlobalId('Task', task.id) });
    const replaced = await gqlOk(t.url, t.a.ownerToken, ReplaceMessage, { messageId: m.message.id, text: 'use sans-serif fonts' });
    assert.equal(replaced.replaceMessage.message.text, 'use sans-serif fonts');
    const item = await t.app.deps.prisma.inboxItem.findFirstOrThrow({ where: { taskId: task.id } });
    assert.equal(item.text, 'use sans-serif fonts');
    const w = await gqlOk(t.url, t.a.ownerToken, WithdrawMessage, { messageId: m.message.id });
    assert.equal(w.withdrawMessage.message.delivery?.state, 'WITHDRAWN');
    const m2 = await sendOk('and a border', { taskId: toGlobalId('Task', task.id) });
    const item2 = await t.app.deps.prisma.inboxItem.findFirstOrThrow({ where: { taskId: task.id, withdrawnAt: null } });
    const turn = await t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
    await t.app.deps.prisma.inboxItem.update({ where: { id: item2.id }, data: { consumedAt: new Date(), consumedTurnId: turn.id, consumedStep: 0 } });
    const late = await gql(t.url, t.a.ownerToken, WithdrawMessage, { messageId: m2.message.id });
    assert.equal(late.errors?.[0]?.extensions?.code, 'CONFLICT');
    assert.match(late.errors?.[0]?.message ?? '', /already read/);
  });
});

describe('language', () => {
  test('a task keeps the language of the user\'s words and switches when the user does', async () => {
    const r = await sendOk('Design an invitation for the penguin parade at the zoo, dark and moody');
    const id = fromGlobalId(r.task!.id).id;
    assert.equal((await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id } })).language, 'en');
    await sendOk('Bitte mach den Hintergrund dunkelblau und die Schrift größer', { taskId: r.task!.id });
    assert.equal((await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id } })).language, 'de');
    assert.equal(await t.app.deps.prisma.taskEvent.count({ where: { taskId: id, type: 'TASK_LANGUAGE_CHANGED' } }), 1);
    await sendOk('ok', { taskId: r.task!.id });
    assert.equal((await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id } })).language, 'de', 'a short "ok" does not switch');
    const input = await buildWorkerInput(t.app.deps.prisma, id);
    assert.match(String(input.messages[1]!.content), /Reply to the user in German/);
  });
});

describe('lightweight, archive, merge, re-route', () => {
  test('a lightweight task stays out of the task list until the user iterates on it, which promotes it', async () => {
    const quick = await sendOk('quick sticker of a smiling lemon');
    assert.equal(quick.route.outcome, 'LIGHTWEIGHT_TASK');
    const listed = async (lw: boolean) =>
      (await gqlOk(t.url, t.a.ownerToken, TaskKindList, { id: ws, lw })).workspace.tasks.edges.map((e) => e.node.id);
    assert.ok(!(await listed(false)).includes(quick.task!.id));
    assert.ok((await listed(true)).includes(quick.task!.id));
    await sendOk('now with a green leaf', { taskId: quick.task!.id });
    const row = await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: fromGlobalId(quick.task!.id).id } });
    assert.equal(row.kind, 'PERSISTENT');
    assert.equal(await t.app.deps.prisma.taskEvent.count({ where: { taskId: row.id, type: 'TASK_PROMOTED' } }), 1);
    assert.ok((await listed(false)).includes(quick.task!.id));
    const other = await sendOk('quick favicon with a star');
    assert.equal((await gqlOk(t.url, t.a.ownerToken, PromoteTask, { taskId: other.task!.id })).promoteTask.task.kind, 'PERSISTENT');
  });

  test('archived tasks are not offered by the router: a request like one starts a new task seeded from it', async () => {
    const task = await makeTask('Hedgehog rescue leaflet', 'RUNNING', { goal: 'leaflet for the hedgehog rescue charity' });
    assert.equal((await sendOk('make the hedgehog rescue leaflet greener')).task?.id, toGlobalId('Task', task.id));
    await gqlOk(t.url, t.a.ownerToken, ManageTasks, { taskId: toGlobalId('Task', task.id) });
    // The index still shows it, with its state, so that the router can seed new work from it.
    const index = await loadTaskIndex(t.app.deps.prisma, t.a.workspaceId, 'make the hedgehog rescue leaflet bluer');
    assert.equal(index.find((e) => e.taskId === task.id)?.archived, true);
    const d = routeOffline('make the hedgehog rescue leaflet bluer', index);
    assert.deepEqual([d.outcome, d.seedTaskId], ['NEW_TASK', task.id], d.reason);
    const after = await sendOk('make the hedgehog rescue leaflet bluer');
    assert.notEqual(after.task?.id, toGlobalId('Task', task.id));
    assert.ok(!after.route.candidates.some((c) => c.task?.id === toGlobalId('Task', task.id)));
  });

  test('merging moves unread messages, ends the source pointing at the target, and journals both', async () => {
    const a = await makeTask('Kite festival poster draft');
    const b = await makeTask('Kite festival poster final');
    await sendOk('use orange kites', { taskId: toGlobalId('Task', a.id) });
    const merged = await gqlOk(t.url, t.a.ownerToken, MergeTasks, { source: toGlobalId('Task', a.id), target: toGlobalId('Task', b.id) });
    assert.equal(merged.mergeTasks.task.id, toGlobalId('Task', b.id));
    const src = await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: a.id } });
    assert.equal(src.status, 'CANCELLED');
    assert.equal(src.mergedIntoId, b.id);
    const moved = await t.app.deps.prisma.inboxItem.findMany({ where: { taskId: b.id, withdrawnAt: null } });
    assert.deepEqual(moved.map((i) => i.text), ['use orange kites']);
    assert.equal(await t.app.deps.prisma.taskEvent.count({ where: { taskId: b.id, type: 'TASK_MERGED_IN' } }), 1);
    const again = await gql(t.url, t.a.ownerToken, MergeTasks, { source: toGlobalId('Task', a.id), target: toGlobalId('Task', b.id) });
    assert.equal(again.errors?.[0]?.extensions?.code, 'CONFLICT');
  });

  test('merging into a task that waits on its plan card sets the card aside for the moved words and wakes the task', async () => {
    const a = await makeTask('Lantern parade poster sketch');
    const b = await makeTask('Lantern parade poster', 'WAITING');
    const plan = await t.app.deps.prisma.approval.create({
      data: { workspaceId: t.a.workspaceId, taskId: b.id, kind: 'PLAN', title: 'Approve the plan', action: { type: 'PLAN' }, reasons: [], requestKey: `test-plan:${b.id}`, requestedByKind: 'AGENT' },
    });
    await sendOk('paper lanterns in deep red, not yellow', { taskId: toGlobalId('Task', a.id) });
    await gqlOk(t.url, t.a.ownerToken, MergeTasks, { source: toGlobalId('Task', a.id), target: toGlobalId('Task', b.id) });
    const card = await t.app.deps.prisma.approval.findUniqueOrThrow({ where: { id: plan.id } });
    assert.equal(card.status, 'SUPERSEDED', 'the plan no longer reflects what was asked');
    assert.match(card.note ?? '', /deep red/);
    assert.equal((await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: b.id } })).status, 'QUEUED', 'the task wakes to read the moved words');
    assert.equal(await t.app.deps.prisma.turn.count({ where: { taskId: b.id, status: 'QUEUED' } }), 1);
    // A merge that moves nothing leaves the target's cards alone.
    const c = await makeTask('Lantern parade flyer');
    const d = await makeTask('Lantern parade flyer v2', 'WAITING');
    const other = await t.app.deps.prisma.approval.create({
      data: { workspaceId: t.a.workspaceId, taskId: d.id, kind: 'PLAN', title: 'Approve the plan', action: { type: 'PLAN' }, reasons: [], requestKey: `test-plan:${d.id}`, requestedByKind: 'AGENT' },
    });
    await gqlOk(t.url, t.a.ownerToken, MergeTasks, { source: toGlobalId('Task', c.id), target: toGlobalId('Task', d.id) });
    assert.equal((await t.app.deps.prisma.approval.findUniqueOrThrow({ where: { id: other.id } })).status, 'PENDING');
  });

  test('re-routing a misrouted message delivers it to the right task and keeps the old decision on record', async () => {
    const wrong = await makeTask('Bicycle shop banner');
    const right = await makeTask('Bicycle race poster');
    const m = await sendOk('add the sponsor logos', { taskId: toGlobalId('Task', wrong.id) });
    const r = await gqlOk(t.url, t.a.ownerToken, RerouteMessage, { messageId: m.message.id, taskId: toGlobalId('Task', right.id) });
    assert.equal(r.rerouteMessage.message.route?.task?.id, toGlobalId('Task', right.id));
    assert.match(r.rerouteMessage.message.route!.reason, /corrected by the user/);
    assert.equal(r.rerouteMessage.message.delivery?.state, 'DELIVERED');
    const decisions = await t.app.deps.prisma.routeDecision.findMany({ where: { messageId: fromGlobalId(m.message.id).id }, orderBy: { createdAt: 'asc' } });
    assert.equal(decisions.length, 2);
    assert.ok(decisions[0]!.supersededAt);
    assert.equal(decisions[1]!.correctedBy, t.a.ownerId);
    assert.ok((await t.app.deps.prisma.inboxItem.findFirstOrThrow({ where: { taskId: wrong.id } })).withdrawnAt, 'unread copy withdrawn');
    assert.equal(await t.app.deps.prisma.taskEvent.count({ where: { taskId: wrong.id, type: 'MESSAGE_REROUTED' } }), 1);
  });
});

describe('the task index reads the work', () => {
  const DAY = 86_400_000;
  /** A task with its dates, finished checklist steps with results, and objects it refers to and wrote. */
  async function work(workspaceId: string, title: string, o: { goal?: string; status?: string; createdDaysAgo: number; endedDaysAgo?: number; archivedDaysAgo?: number; results?: string[]; objects?: string[]; wrote?: string[] }) {
    const ago = (d: number) => new Date(Date.now() - d * DAY);
    const prisma = t.app.deps.prisma;
    const task = await prisma.task.create({
      data: {
        workspaceId,
        title,
        goal: o.goal ?? title,
        status: (o.status ?? 'RUNNING') as 'RUNNING',
        createdAt: ago(o.createdDaysAgo),
        lastActivityAt: ago(o.endedDaysAgo ?? o.createdDaysAgo / 2),
        endedAt: o.endedDaysAgo !== undefined ? ago(o.endedDaysAgo) : null,
        archivedAt: o.archivedDaysAgo !== undefined ? ago(o.archivedDaysAgo) : null,
        checklistVersion: o.results ? 1 : 0,
      },
    });
    if (o.results) {
      const items = [
        ...o.results.map((r, i) => ({ id: `s${i}`, title: r, kind: 'IMAGE', status: 'DONE', artifacts: [`job:${task.id.slice(0, 8)}-${i}`] })),
        { id: 'open', title: 'An open step without results', kind: 'IMAGE', status: 'TODO', artifacts: [] },
      ];
      await prisma.taskChecklist.create({ data: { taskId: task.id, version: 1, items, reason: 'test', authorKind: 'SYSTEM' } });
    }
    for (const name of o.objects ?? []) {
      const obj = await prisma.workspaceObject.create({ data: { workspaceId, kind: 'IMAGE', name, currentVersion: 1, createdByKind: 'USER' } });
      await prisma.taskObjectRef.create({ data: { taskId: task.id, objectId: obj.id } });
    }
    for (const name of o.wrote ?? []) {
      const obj = await prisma.workspaceObject.create({ data: { workspaceId, kind: 'IMAGE', name, currentVersion: 1, createdByKind: 'AGENT' } });
      await prisma.objectVersion.create({
        data: { objectId: obj.id, workspaceId, version: 1, name, content: {}, summary: 'created', changes: [], authorKind: 'AGENT', authorTaskId: task.id },
      });
    }
    return task;
  }

  test('entries carry dates, finished state, results and object names; the router matches on them', async () => {
    const ws = await t.app.deps.prisma.workspace.create({ data: { name: 'Reads', slug: 'reads' } });
    const bakery = await work(ws.id, 'Lantern Café winter posters', {
      status: 'COMPLETED', createdDaysAgo: 9, endedDaysAgo: 2, results: ['poster 1 — hot chocolate', 'poster 2 — gingerbread', 'poster 3 — opening hours'],
    });
    const gala = await work(ws.id, 'Riverside choir concert poster 2026', { status: 'COMPLETED', createdDaysAgo: 40, endedDaysAgo: 20, results: ['choir poster A2 (final)'] });
    const labels = await work(ws.id, 'Osprey Cider bottle labels', { createdDaysAgo: 12, objects: ['Osprey dry cider label v3', 'Osprey perry label v2'], wrote: ['Osprey rose label v1'] });
    const fete = await work(ws.id, 'Village fair flyer', { status: 'COMPLETED', createdDaysAgo: 90, endedDaysAgo: 80, archivedDaysAgo: 5 });
    const oldArchive = await work(ws.id, 'Harvest fair flyer', { status: 'COMPLETED', createdDaysAgo: 400, endedDaysAgo: 390, archivedDaysAgo: 200 });
    const videoA = await work(ws.id, 'Lighthouse tour video', { createdDaysAgo: 3 });
    await work(ws.id, 'Onboarding screencast video', { createdDaysAgo: 30 });

    const index = await loadTaskIndex(t.app.deps.prisma, ws.id, 'the gingerbread poster could be softer');
    const e = index.find((x) => x.taskId === bakery.id)!;
    assert.deepEqual([e.status, e.archived, !!e.endedAt, !!e.createdAt], ['COMPLETED', false, true, true]);
    assert.deepEqual([...e.results!].sort(), ['poster 1 — hot chocolate', 'poster 2 — gingerbread', 'poster 3 — opening hours'], 'finished steps with results, not open ones');
    const l = index.find((x) => x.taskId === labels.id)!;
    assert.deepEqual([...l.objects].sort(), ['Osprey dry cider label v3', 'Osprey perry label v2']);
    assert.deepEqual(l.results, ['Osprey rose label v1'], 'an object the task wrote is one of its results');
    assert.equal(index.find((x) => x.taskId === fete.id)?.archived, true, 'recently archived: in the index with its state');
    assert.ok(!index.some((x) => x.taskId === oldArchive.id), 'archived long ago: not in the index');
    assert.ok(index.length <= INDEX_MAX);
    for (const x of index) {
      assert.ok(x.objects.length <= INDEX_NAMES && (x.results ?? []).length <= INDEX_NAMES);
      for (const name of [...x.objects, ...(x.results ?? [])]) assert.ok(name.length <= INDEX_NAME_CHARS);
    }

    const route = async (text: string) => routeOffline(text, await loadTaskIndex(t.app.deps.prisma, ws.id, text));
    const byResult = await route('the gingerbread poster needs a softer red');
    assert.deepEqual([byResult.outcome, byResult.taskId], ['EXISTING_TASK', bakery.id], byResult.reason);
    const byObject = await route('Osprey dry cider label v3: move the bird up a little');
    assert.deepEqual([byObject.outcome, byObject.taskId], ['EXISTING_TASK', labels.id], byObject.reason);
    const typo = await route('ospray cidre lables: darker background on the perry');
    assert.deepEqual([typo.outcome, typo.taskId], ['EXISTING_TASK', labels.id], typo.reason);
    const next = await route('we need the choir concert poster for 2027');
    assert.deepEqual([next.outcome, next.seedTaskId], ['NEW_TASK', gala.id], next.reason);
    const weekday = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'][new Date(Date.now() - 3 * DAY).getUTCDay()];
    const dated = await route(`the video we started on ${weekday}: add captions`);
    assert.deepEqual([dated.outcome, dated.taskId], ['EXISTING_TASK', videoA.id], dated.reason);
    const stop = await route('stop the lighthouse video');
    assert.deepEqual([stop.outcome, stop.taskId, stop.intent], ['EXISTING_TASK', videoA.id, 'CANCEL'], stop.reason);
    const status = await route("where's the lighthouse video at");
    assert.deepEqual([status.outcome, status.taskId, status.intent], ['EXISTING_TASK', videoA.id, 'STATUS'], status.reason);
    const seeded = await route('the village fair flyer again, for next year');
    assert.deepEqual([seeded.outcome, seeded.seedTaskId], ['NEW_TASK', fete.id], seeded.reason);
  });
});
