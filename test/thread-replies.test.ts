// Conversation continuity in the main thread, over GraphQL, in EN, DE, FR, ES, ZH and JA: the thread
// answers (help, honest offline answers, what is in progress, remembered facts), a status question
// about a task is answered from its state without waking it (no delivery, no turn, so no model
// call), a casual stop/pause/resume reaches the named task as a signal once per message (a stop that
// would abandon paid work asks first with a card), every message routed to a task is acknowledged
// by it in the asker's language. (A task's own cards and delivery in its language: task-language.test.ts.)
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createToken } from '../server/auth/create-token.ts';
import { ChecklistItemSchema } from '../server/domain/checklist.ts';
import { quote, type ReplyLanguage } from '../server/domain/replies/languages.ts';
import { textsFor } from '../server/domain/replies/texts.ts';
import { extractPending } from '../server/services/memory/extract-memories.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';

const Send = graphql(`
  mutation RepliesSend($input: SendMessageInput!) {
    sendMessage(input: $input) {
      duplicate
      message { id delivery { state } }
      route { outcome reason task { id title } }
      task { id status }
      card { id prompt options { id label } }
      reply { id text language }
    }
  }
`);

const AnswerCard = graphql(`
  mutation RepliesAnswerCard($input: AnswerCardInput!) {
    answerCard(input: $input) { duplicate task { id status } }
  }
`);

const Thread = graphql(`
  query RepliesThread($id: ID!) {
    workspace(id: $id) { mainThread { messages(last: 20) { edges { node { role text language } } } } }
  }
`);

const LANGS: ReplyLanguage[] = ['en', 'de', 'fr', 'es', 'zh', 'ja'];
let n = 0;
const key = (p = 'r') => `${p}-${++n}`;

describe('the main thread', () => {
  let t: TestApp;
  const prisma = () => t.app.deps.prisma;
  /** A workspace of its own for each test: what a message names depends on the tasks around it. */
  type Space = { id: string; gid: string; token: string };
  let w: Space;
  const space = async (): Promise<Space> => {
    const row = await prisma().workspace.create({ data: { name: `Replies ${++n}`, slug: `replies-${n}` } });
    await prisma().membership.create({ data: { workspaceId: row.id, userId: t.a.ownerId, role: 'OWNER' } });
    const token = (await createToken(prisma(), { workspaceId: row.id, userId: t.a.ownerId, name: 'replies', scopes: ['READ', 'WRITE', 'APPROVE'] })).token;
    return { id: row.id, gid: toGlobalId('Workspace', row.id), token };
  };
  const send = async (text: string, extra: Record<string, unknown> = {}, idempotencyKey = key()) => {
    const r = await gql(t.url, w.token, Send, { input: { workspaceId: w.gid, text, idempotencyKey, ...extra } });
    if (r.errors || !r.data) throw new Error(JSON.stringify(r.errors));
    return r.data.sendMessage;
  };
  const task = (title: string, data: Record<string, unknown> = {}) =>
    prisma().task.create({ data: { workspaceId: w.id, title, goal: title, status: 'RUNNING', lastActivityAt: new Date(), ...data } as never });
  const lastInThread = async () => (await gqlOk(t.url, w.token, Thread, { id: w.gid })).workspace.mainThread.messages.edges.at(-1)!.node;
  /** Everything a delivery or a turn would leave behind. */
  const footprint = async (taskId: string) => ({
    inbox: await prisma().inboxItem.count({ where: { taskId } }),
    turns: await prisma().turn.count({ where: { taskId } }),
    steps: await prisma().step.count({ where: { taskId } }),
    received: await prisma().taskEvent.count({ where: { taskId, type: 'MESSAGE_RECEIVED' } }),
  });

  before(async () => {
    t = await startTestApp('replies');
  });
  beforeEach(async () => {
    w = await space();
  });
  after(async () => {
    await t.close();
  });

  test('"what can you do?" in six languages: help in the asker\'s language, saying it is offline', async () => {
    const asked: Record<ReplyLanguage, string> = {
      en: 'what can you do?',
      de: 'Was kannst du alles machen?',
      fr: "Qu'est-ce que tu sais faire ?",
      es: '¿Qué puedes hacer?',
      zh: '你能做什么？',
      ja: '何ができますか？',
    };
    for (const lang of LANGS) {
      const r = await send(asked[lang]);
      assert.equal(r.route.outcome, 'ANSWER', asked[lang]);
      assert.equal(r.reply?.text, textsFor(lang).help(true), asked[lang]);
      assert.equal(r.reply?.language, lang);
    }
  });

  test('offline, a question nothing stored answers gets an honest "I can\'t answer that", never a guess', async () => {
    const r = await send('why is the sky blue?');
    assert.equal(r.route.outcome, 'ANSWER');
    assert.equal(r.reply?.text, textsFor('en').cannotAnswer(true));
    const de = await send('Warum ist der Himmel blau?');
    assert.equal(de.reply?.text, textsFor('de').cannotAnswer(true));
  });

  test('status questions in six languages are answered from the task\'s state, without waking it', async () => {
    const posters = await task('Coffee posters', { status: 'WAITING', checklistVersion: 1 });
    await prisma().taskChecklist.create({
      data: {
        taskId: posters.id,
        version: 1,
        reason: 'plan',
        authorKind: 'AGENT',
        items: [
          ChecklistItemSchema.parse({ id: 'poster-1', title: 'Poster 1', kind: 'IMAGE', status: 'DONE', artifacts: ['object:x'] }),
          ChecklistItemSchema.parse({ id: 'poster-2', title: 'Poster 2', kind: 'IMAGE' }),
        ],
      },
    });
    const video = await task('Launch video for the app', { status: 'WAITING' });
    await prisma().approval.create({
      data: { workspaceId: w.id, taskId: video.id, kind: 'PLAN', title: 'Plan: 5 steps, estimated $1.20', reasons: [], action: { type: 'PLAN' }, requestKey: `plan-${video.id}`, requestedByKind: 'AGENT' },
    });
    const before = { posters: await footprint(posters.id), video: await footprint(video.id) };
    const asked: [ReplyLanguage, string, typeof posters][] = [
      ['en', "where's the video at?", video],
      ['de', 'wie weit ist das Plakat?', posters],
      ['fr', 'où en est la vidéo ?', video],
      ['es', '¿cómo va el cartel?', posters],
      ['zh', '海报做得怎么样了？', posters],
      ['ja', '動画はどうなった？', video],
    ];
    for (const [lang, text, about] of asked) {
      const r = await send(text);
      const tx = textsFor(lang);
      assert.equal(r.route.task?.id, toGlobalId('Task', about.id), `${text}: ${r.route.reason}`);
      assert.equal(r.message.delivery, null, `${text}: not delivered to the task`);
      assert.equal(r.reply?.language, lang);
      const reply = r.reply!.text;
      assert.ok(reply.startsWith(quote(lang, about.title)), `${text} → ${reply}`);
      if (about.id === posters.id) assert.ok(reply.includes(tx.progress(1, 2, 'Poster 2')), `${text} → ${reply}`);
      else assert.ok(reply.includes(tx.status(about.title, { kind: 'decision', title: 'Plan: 5 steps, estimated $1.20' })), `${text} → ${reply}`);
      assert.ok(reply.includes(tx.cost(0)), `${text} → ${reply}`);
    }
    assert.deepEqual({ posters: await footprint(posters.id), video: await footprint(video.id) }, before, 'no inbox item, no turn, no step, no event: the tasks were not woken');
  });

  test('"stop …" in six languages reaches the named task as a signal, once per message', async () => {
    const cases: [ReplyLanguage, string, string][] = [
      ['en', 'stop the PPT', 'Board meeting PPT'],
      ['de', 'hör auf mit dem Video', 'Produktvideo für die Messe'],
      ['fr', "arrête l'affiche", 'Affiche du festival de jazz'],
      ['es', 'para el vídeo', 'Vídeo de la boda'],
      ['zh', '别做海报了', '中秋节海报'],
      ['ja', '動画を止めて', '新商品の紹介動画'],
    ];
    for (const [lang, text, title] of cases) {
      w = await space();
      const x = await task(title);
      const k = key('stop');
      const r = await send(text, {}, k);
      assert.equal(r.route.task?.id, toGlobalId('Task', x.id), `${text}: ${r.route.reason}`);
      assert.equal(r.reply?.text, textsFor(lang).steered('CANCEL', title, 'done'), text);
      assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: x.id } })).status, 'CANCELLED', text);
      const again = await send(text, {}, k);
      assert.equal(again.duplicate, true);
      assert.equal(again.reply?.id, r.reply?.id);
      const signals = await prisma().inboxItem.findMany({ where: { taskId: x.id, kind: 'SIGNAL' } });
      assert.deepEqual(signals.map((s) => [s.signal, s.idempotencyKey]), [['CANCEL', `steer:${fromGlobalId(r.message.id).id}`]], 'one signal, filed under the message');
      assert.equal(await prisma().inboxItem.count({ where: { taskId: x.id, kind: 'MESSAGE' } }), 0, 'the words were not delivered as an instruction');
    }
  });

  test('pause and resume by name', async () => {
    const x = await task('Spring market posters');
    const p = await send('pause the posters');
    assert.equal(p.reply?.text, textsFor('en').steered('PAUSE', x.title, 'done'));
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: x.id } })).status, 'PAUSED');
    assert.equal((await send('pausiere die Plakate')).reply?.text, textsFor('de').steered('PAUSE', x.title, 'already'));
    const r = await send("reprends l'affiche");
    assert.equal(r.reply?.text, textsFor('fr').steered('RESUME', x.title, 'done'));
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: x.id } })).status, 'QUEUED');
    assert.equal(await prisma().turn.count({ where: { taskId: x.id, status: 'QUEUED' } }), 1, 'resuming schedules a turn');
  });

  test('a stop that would abandon paid work asks first: "keep going" keeps it, "stop" stops it', async () => {
    const x = await task('Startvideo für die App', { approvedBudgetCents: 120, language: 'de' });
    const de = textsFor('de');
    const asked = await send('brich das Video ab');
    assert.equal(asked.reply?.text, de.confirmCancel(x.title, { runningJobs: 0, heldCents: 0, approvedCents: 120 }));
    assert.deepEqual(asked.card?.options.map((o) => o.label), [de.confirmYes('CANCEL'), de.confirmNo]);
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: x.id } })).status, 'RUNNING', 'nothing happens before the answer');
    const keep = await gqlOk(t.url, w.token, AnswerCard, { input: { cardId: asked.card!.id, optionId: 'keep', idempotencyKey: key() } });
    assert.equal(keep.answerCard.task?.status, 'RUNNING');
    const kept = await lastInThread();
    assert.ok(kept.text.startsWith(de.kept(x.title)), kept.text);
    assert.equal(await prisma().inboxItem.count({ where: { taskId: x.id } }), 0, 'neither a signal nor a message reached the task');

    const again = await send('brich das Video ab');
    const stop = await gqlOk(t.url, w.token, AnswerCard, { input: { cardId: again.card!.id, optionId: 'stop', idempotencyKey: key() } });
    assert.equal(stop.answerCard.task?.status, 'CANCELLED');
    const last = await lastInThread();
    assert.deepEqual([last.text, last.language], [de.steered('CANCEL', x.title, 'done'), 'de']);
    assert.equal(await prisma().inboxItem.count({ where: { taskId: x.id, kind: 'SIGNAL', signal: 'CANCEL' } }), 1);
  });

  test('a command naming two tasks asks which one; the pick applies it to that one only', async () => {
    const a = await task('Teaser video A');
    const b = await task('Teaser video B');
    const r = await send('pause the teaser video');
    assert.equal(r.route.outcome, 'CLARIFY');
    assert.equal(r.card?.prompt, textsFor('en').whichTask('PAUSE'));
    const option = r.card!.options.find((o) => o.label === textsFor('en').steerOption('PAUSE', b.title))!;
    await gqlOk(t.url, w.token, AnswerCard, { input: { cardId: r.card!.id, optionId: option.id, idempotencyKey: key() } });
    assert.deepEqual(
      [(await prisma().task.findUniqueOrThrow({ where: { id: a.id } })).status, (await prisma().task.findUniqueOrThrow({ where: { id: b.id } })).status],
      ['RUNNING', 'PAUSED'],
    );
  });

  test('a message routed to a task is acknowledged by it in the asker\'s language', async () => {
    const x = await task('Coffee posters round two', { language: 'en' });
    const said: Record<ReplyLanguage, string> = {
      en: 'make poster 2 warmer',
      de: 'Mach das zweite Plakat bitte wärmer',
      fr: 'Rends la deuxième affiche plus chaleureuse',
      es: 'Haz el segundo cartel más cálido',
      zh: '把第二张海报调得更暖一些',
      ja: '2枚目のポスターをもっと暖かい色にして',
    };
    for (const lang of LANGS) {
      const r = await send(said[lang], { taskId: toGlobalId('Task', x.id) });
      assert.equal(r.message.delivery?.state, 'DELIVERED');
      assert.equal(r.reply?.text, textsFor(lang).delivered(x.title, said[lang]), said[lang]);
      assert.equal(r.reply?.language, lang);
    }
    assert.equal(textsFor('en').delivered(x.title, said.en), 'Got it — I\'ll make poster 2 warmer in “Coffee posters round two”.');
    const started = await send('Erstelle bitte ein 3D-Modell von einem Leuchtturm an der Küste');
    assert.ok(['NEW_TASK', 'LIGHTWEIGHT_TASK'].includes(started.route.outcome), started.route.reason);
    const created = await prisma().task.findUniqueOrThrow({ where: { id: fromGlobalId(started.task!.id).id } });
    assert.equal(started.reply?.text, textsFor('de').started(created.title));
  });

  test('a lasting fact is remembered without starting a task, and answered from memory with when it was said', async () => {
    const tasks = await prisma().task.count({ where: { workspaceId: w.id } });
    const said = await send('Our brand color is teal.');
    assert.equal(said.route.outcome, 'ANSWER', said.route.reason);
    assert.equal(said.task, null);
    assert.equal(said.reply?.text, textsFor('en').remembered([{ kind: 'brandColor', subject: 'brand.colors', value: 'teal' }]));
    const prefer = await send('I prefer muted palettes');
    assert.equal(prefer.route.outcome, 'ANSWER', prefer.route.reason);
    assert.equal(prefer.reply?.text, textsFor('en').remembered([{ kind: 'prefer', subject: 'preference.color', value: 'muted palettes' }]));
    assert.equal(await prisma().task.count({ where: { workspaceId: w.id } }), tasks, 'no task was started');
    await extractPending(t.app.deps.memory, w.id, t.a.ownerId);
    const today = new Date();
    const asked = await send("what's our brand color?");
    assert.equal(asked.reply?.text, `Brand color: teal (you told me on ${textsFor('en').date(today)}).`);

    const de = await send('Unsere Markenfarbe ist Petrol.');
    assert.equal(de.reply?.text, textsFor('de').remembered([{ kind: 'brandColor', subject: 'brand.colors', value: 'Petrol' }]));
    await extractPending(t.app.deps.memory, w.id, t.a.ownerId);
    const deAsked = await send('Was ist unsere Markenfarbe?');
    assert.equal(deAsked.reply?.text, `Markenfarbe: Petrol (das hast du mir am ${textsFor('de').date(today)} gesagt).`);
    assert.equal(await prisma().task.count({ where: { workspaceId: w.id } }), tasks);

    const never = await send('Quelle est notre police de marque ?');
    assert.equal(never.reply?.text, textsFor('fr').recallUnknown, 'never said: no answer rather than a guess');
  });

  test('"what are you working on?": the live tasks and what each waits for', async () => {
    const empty = await send('what are you working on?');
    assert.equal(empty.reply?.text, textsFor('en').nothingInProgress);
    const catalogue = await task('Spring catalogue', { status: 'WAITING' });
    await prisma().approval.create({
      data: { workspaceId: w.id, taskId: catalogue.id, kind: 'PLAN', title: 'Plan: 3 steps, estimated $0.12', reasons: [], action: { type: 'PLAN' }, requestKey: `plan-${catalogue.id}`, requestedByKind: 'AGENT' },
    });
    const jingle = await task('Jingle for the podcast', { status: 'PAUSED', statusReason: 'paused by you' });
    for (const [lang, text] of [['en', 'what are you working on?'], ['zh', '你在做什么？']] as const) {
      const r = await send(text);
      const tx = textsFor(lang);
      assert.equal(r.task, null, 'no task was started');
      assert.equal(
        r.reply?.text,
        tx.workingOn([tx.status(jingle.title, { kind: 'paused', reason: lang === 'en' ? 'paused by you' : null }), tx.status(catalogue.title, { kind: 'decision', title: 'Plan: 3 steps, estimated $0.12' })]),
      );
    }
  });
});
