// Cards of the main thread keep the request: answering one (answerCard, or sendMessage with
// cardAction as before) applies the choice to the message that raised the card — that message, with
// its own words, goes to the task picked or becomes a new task; no option label is ever sent as a
// message or becomes a task. Answers are final and idempotent per key, per person. The cards here are
// raised by code (a message about an object two tasks use), so no router decides them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createToken } from '../server/auth/create-token.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { SendMessage } from './helpers/documents.ts';
import { fromGlobalId } from './helpers/ids.ts';

const AnswerCard = graphql(`
  mutation CardsAnswer($input: AnswerCardInput!) {
    answerCard(input: $input) {
      duplicate
      card { id status choice answeredAt }
      message { id text route { outcome method reason task { id } } delivery { state } }
      route { outcome method reason superseded task { id title } }
      task { id title goal status }
    }
  }
`);

const ThreadMessages = graphql(`
  query CardsThread($id: ID!) {
    workspace(id: $id) { mainThread { messages(last: 200) { edges { node { id role text route { outcome } card { id status } } } } } }
  }
`);

let t: TestApp;
let ws: string;
let n = 0;
const key = (p = 'k') => `${p}-${++n}`;

before(async () => {
  t = await startTestApp('cards');
  ws = toGlobalId('Workspace', t.a.workspaceId);
});
after(async () => {
  await t.close();
});

const prisma = () => t.app.deps.prisma;
const uuid = (gid: string) => fromGlobalId(gid).id;

/** A message about an object two running tasks use: the thread asks which task it is for. */
async function askAbout(text: string, titles = ['Harbour banner north', 'Harbour banner south']) {
  const tasks = await Promise.all(titles.map((title) => prisma().task.create({ data: { workspaceId: t.a.workspaceId, title, goal: title, status: 'RUNNING' } })));
  const object = await prisma().workspaceObject.create({
    data: { workspaceId: t.a.workspaceId, kind: 'DOCUMENT', name: `Banner ${++n}`, currentVersion: 1, createdByKind: 'USER', createdById: t.a.ownerId },
  });
  await prisma().taskObjectRef.createMany({ data: tasks.map((x) => ({ taskId: x.id, objectId: object.id })) });
  const objectId = toGlobalId('WorkspaceObject', object.id);
  const sent = (await gqlOk(t.url, t.a.ownerToken, SendMessage, { input: { workspaceId: ws, text, objectId, idempotencyKey: key('ask') } })).sendMessage;
  assert.equal(sent.route.outcome, 'CLARIFY');
  assert.ok(sent.card, 'a card asks which task');
  return { sent, card: sent.card!, tasks };
}

const answer = (cardId: string, optionId: string, idempotencyKey = key('answer'), token = t.a.ownerToken) =>
  gql(t.url, token, AnswerCard, { input: { cardId, optionId, idempotencyKey } });

async function threadTexts(): Promise<{ role: string; text: string }[]> {
  const d = await gqlOk(t.url, t.a.ownerToken, ThreadMessages, { id: ws });
  return d.workspace.mainThread.messages.edges.map((e) => ({ role: e.node.role, text: e.node.text }));
}

describe('answerCard', () => {
  test('"Start a new task": the message that raised the card becomes the task, in its own words; no message carries the label', async () => {
    const request = 'a banner for the harbour festival on the east pier';
    const { sent, card } = await askAbout(request);
    const create = card.options.find((o) => o.action === 'create')!;
    const before = await threadTexts();
    const tasksBefore = await prisma().task.count();

    const r = await answer(card.id, create.id, 'answer-new');
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const a = r.data!.answerCard;
    assert.deepEqual([a.card.status, a.card.choice, a.duplicate], ['RESOLVED', create.id, false]);
    assert.ok(a.card.answeredAt);
    assert.equal(a.message.id, sent.message.id, 'the answer routes the message that raised the card');
    assert.equal(a.message.text, request);
    assert.deepEqual([a.route.outcome, a.route.method, a.route.superseded], ['NEW_TASK', 'DETERMINISTIC', false]);
    assert.deepEqual([a.task?.title, a.task?.goal], [request, request], 'the request, not "Start a new task"');
    assert.equal(a.message.route?.task?.id, a.task!.id, "the message's route is the answer's");
    assert.equal(a.message.delivery?.state, 'DELIVERED');
    assert.equal(await prisma().task.count(), tasksBefore + 1);
    const inbox = await prisma().inboxItem.findMany({ where: { taskId: uuid(a.task!.id) } });
    assert.deepEqual(inbox.map((i) => i.text), [request]);
    // Nothing was written to the thread: no message with the option's label, no second copy.
    const afterTexts = await threadTexts();
    assert.deepEqual(afterTexts, before);
    assert.ok(!afterTexts.some((m) => m.text === create.label));
    assert.equal(await prisma().task.count({ where: { title: create.label } }), 0);
    // The question's decision stays on record, superseded by the answer's.
    const routes = await prisma().routeDecision.findMany({ where: { messageId: uuid(sent.message.id) }, orderBy: { createdAt: 'asc' } });
    assert.deepEqual(routes.map((d) => [d.outcome, d.supersededAt !== null]), [['CLARIFY', true], ['NEW_TASK', false]]);

    // The same request again returns what it did; nothing new.
    const again = await answer(card.id, create.id, 'answer-new');
    assert.equal(again.errors, undefined, JSON.stringify(again.errors));
    assert.deepEqual([again.data!.answerCard.duplicate, again.data!.answerCard.task?.id], [true, a.task!.id]);
    // The same answer from another tab (another key) is the same answer: recorded, nothing new.
    const otherTab = await answer(card.id, create.id, 'answer-new-tab-2');
    assert.deepEqual([otherTab.data?.answerCard.duplicate, otherTab.data?.answerCard.task?.id], [true, a.task!.id]);
    assert.equal(await prisma().task.count(), tasksBefore + 1);
    assert.equal(await prisma().inboxItem.count({ where: { taskId: uuid(a.task!.id) } }), 1);

    // Another option is refused with a typed error naming the answer that stands.
    const other = card.options.find((o) => o.action === 'continue')!;
    const changed = await answer(card.id, other.id);
    assert.equal(changed.errors?.[0]?.extensions?.code, 'CONFLICT');
    assert.equal(changed.errors?.[0]?.extensions?.reason, 'CARD_ALREADY_ANSWERED');
    assert.equal(changed.errors?.[0]?.extensions?.choice, create.id);
    // The first key with another option names another request.
    const reused = await answer(card.id, other.id, 'answer-new');
    assert.equal(reused.errors?.[0]?.extensions?.code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal(await prisma().inboxItem.count({ where: { taskId: { in: (await prisma().task.findMany({ where: { title: { startsWith: 'Harbour banner' } } })).map((x) => x.id) } } }), 0);
  });

  test('"Continue …": the message goes to the task picked, whose turn will read it', async () => {
    const request = 'thinner outline on the logo';
    const { sent, card, tasks } = await askAbout(request, ['Logo refresh A', 'Logo refresh B']);
    const pick = card.options.find((o) => o.task?.id === toGlobalId('Task', tasks[1]!.id))!;
    const a = (await gqlOk(t.url, t.a.ownerToken, AnswerCard, { input: { cardId: card.id, optionId: pick.id, idempotencyKey: key() } })).answerCard;
    assert.deepEqual([a.route.outcome, a.route.method, a.task?.id], ['EXISTING_TASK', 'DETERMINISTIC', toGlobalId('Task', tasks[1]!.id)]);
    assert.match(a.route.reason, /card choice/);
    assert.equal(a.message.id, sent.message.id);
    const items = await prisma().inboxItem.findMany({ where: { taskId: tasks[1]!.id } });
    assert.deepEqual(items.map((i) => i.text), [request]);
    assert.equal(await prisma().inboxItem.count({ where: { taskId: tasks[0]!.id } }), 0);
    assert.equal(await prisma().turn.count({ where: { taskId: tasks[1]!.id, status: 'QUEUED' } }), 1, 'a turn will read it');
    const received = await prisma().taskEvent.findMany({ where: { taskId: tasks[1]!.id, type: 'MESSAGE_RECEIVED' } });
    assert.deepEqual(received.map((e) => (e.payload as { text: string }).text), [request]);
  });

  test("a card is its asker's: other people and workspaces cannot see it; bad options are refused before anything is written", async () => {
    const { card } = await askAbout('a warmer palette for the flyer', ['Flyer one', 'Flyer two']);
    const member = await prisma().user.create({ data: { email: 'member-cards@example.test', name: 'Member' } });
    await prisma().membership.create({ data: { workspaceId: t.a.workspaceId, userId: member.id, role: 'MEMBER' } });
    const memberToken = (await createToken(prisma(), { workspaceId: t.a.workspaceId, userId: member.id, name: 'member', scopes: ['READ', 'WRITE'] })).token;
    const create = card.options.find((o) => o.action === 'create')!.id;
    assert.equal((await answer(card.id, create, key(), memberToken)).errors?.[0]?.extensions?.code, 'NOT_FOUND', 'another person');
    assert.equal((await answer(card.id, create, key(), t.b.ownerToken)).errors?.[0]?.extensions?.code, 'NOT_FOUND', 'another workspace');
    assert.equal((await answer(card.id, create, key(), t.a.readToken)).errors?.[0]?.extensions?.code, 'FORBIDDEN', 'a read-only token');
    assert.equal((await answer(card.id, 'no-such-option')).errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.equal((await answer('not-a-card', create)).errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.equal((await answer('00000000-0000-4000-8000-000000000000', create)).errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', 'a raw key is no id');
    assert.equal((await answer(toGlobalId('Approval', '00000000-0000-4000-8000-000000000000'), create)).errors?.[0]?.extensions?.code, 'NOT_FOUND');
    const row = await prisma().card.findUniqueOrThrow({ where: { id: uuid(card.id) } });
    assert.deepEqual([row.status, row.choice], ['OPEN', null], 'nothing was answered');
    assert.ok((await answer(card.id, create)).data?.answerCard.task, 'its asker still can');
  });

  test('moving the message answers its card: answering afterwards cannot deliver it twice', async () => {
    const { sent, card, tasks } = await askAbout('rounder corners', ['Badge one', 'Badge two']);
    const Move = graphql(`
      mutation CardsMove($messageId: ID!, $taskId: ID!) { rerouteMessage(messageId: $messageId, taskId: $taskId) { message { id card { status choice } } } }
    `);
    const moved = (await gqlOk(t.url, t.a.ownerToken, Move, { messageId: sent.message.id, taskId: toGlobalId('Task', tasks[0]!.id) })).rerouteMessage.message;
    const pick = card.options.find((o) => o.task?.id === toGlobalId('Task', tasks[0]!.id))!;
    assert.deepEqual([moved.card?.status, moved.card?.choice], ['RESOLVED', pick.id]);
    const late = await answer(card.id, card.options.find((o) => o.action === 'create')!.id);
    assert.equal(late.errors?.[0]?.extensions?.reason, 'CARD_ALREADY_ANSWERED');
    assert.equal(await prisma().inboxItem.count({ where: { text: 'rounder corners' } }), 1, 'delivered once');
  });

  test('two different answers at once: one wins, the other is refused', async () => {
    const { card } = await askAbout('bigger headline', ['Poster east', 'Poster west']);
    const [x, y] = card.options.filter((o) => o.action === 'continue');
    const results = await Promise.all([answer(card.id, x!.id), answer(card.id, y!.id)]);
    const outcomes = results.map((r) => (r.errors ? r.errors[0]!.extensions!.reason : 'OK')).sort();
    assert.deepEqual(outcomes, ['CARD_ALREADY_ANSWERED', 'OK']);
    const delivered = await prisma().inboxItem.count({ where: { text: 'bigger headline' } });
    assert.equal(delivered, 1, 'the message went to one task');
  });
});

describe('sendMessage with cardAction (the earlier form)', () => {
  test('answers the same way: with the label as text or no text at all, no message and no task carries the label', async () => {
    const request = 'a sea-blue background for the menu';
    const { sent, card } = await askAbout(request, ['Menu card lunch', 'Menu card dinner']);
    const create = card.options.find((o) => o.action === 'create')!;
    const before = await threadTexts();
    const viaLabel = (await gqlOk(t.url, t.a.ownerToken, SendMessage, { input: { workspaceId: ws, text: create.label, cardAction: { cardId: card.id, optionId: create.id }, idempotencyKey: 'legacy-1' } })).sendMessage;
    assert.equal(viaLabel.message.id, sent.message.id);
    assert.equal(viaLabel.message.text, request);
    assert.equal(viaLabel.task?.title, request);
    assert.deepEqual(await threadTexts(), before, 'the label was not stored as a message');
    // Retried without text (text is optional with cardAction): the recorded answer.
    const bare = await gql(t.url, t.a.ownerToken, SendMessage, { input: { workspaceId: ws, cardAction: { cardId: card.id, optionId: create.id }, idempotencyKey: 'legacy-2' } });
    assert.equal(bare.errors, undefined, JSON.stringify(bare.errors));
    assert.deepEqual([bare.data!.sendMessage.duplicate, bare.data!.sendMessage.task?.id], [true, viaLabel.task?.id]);
  });

  test('words typed with the answer are a message of their own, to the task chosen; text is required without a card', async () => {
    const request = 'add the opening hours';
    const { card, tasks } = await askAbout(request, ['Shop window A', 'Shop window B']);
    const pick = card.options.find((o) => o.task?.id === toGlobalId('Task', tasks[0]!.id))!;
    const r = (await gqlOk(t.url, t.a.ownerToken, SendMessage, { input: { workspaceId: ws, text: 'and in bold, please', cardAction: { cardId: card.id, optionId: pick.id }, idempotencyKey: 'legacy-3' } })).sendMessage;
    assert.equal(r.message.text, 'and in bold, please');
    assert.deepEqual([r.route.outcome, r.task?.id], ['EXISTING_TASK', toGlobalId('Task', tasks[0]!.id)]);
    const items = await prisma().inboxItem.findMany({ where: { taskId: tasks[0]!.id }, orderBy: { createdAt: 'asc' } });
    assert.deepEqual(items.map((i) => i.text), [request, 'and in bold, please']);
    const again = (await gqlOk(t.url, t.a.ownerToken, SendMessage, { input: { workspaceId: ws, text: 'and in bold, please', cardAction: { cardId: card.id, optionId: pick.id }, idempotencyKey: 'legacy-3' } })).sendMessage;
    assert.equal(again.duplicate, true);
    assert.equal(await prisma().inboxItem.count({ where: { taskId: tasks[0]!.id } }), 2);
    const noText = await gql(t.url, t.a.ownerToken, SendMessage, { input: { workspaceId: ws, idempotencyKey: key() } });
    assert.equal(noText.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  });
});
