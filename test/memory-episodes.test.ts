// Episodic memory, read: the phase summaries written as memory is learnt are found by task, subject
// and time ("what did we settle on for the coffee posters last week?" in EN, DE, FR, ES, ZH, JA),
// always with citations (the sources' ids and the summary's), through every path that reads them:
// the service, the worker's memory section (and memory_uses, which forgetting reads), the main
// thread's answer in the asker's language, and the API (Workspace.episodes, paged, with typed errors
// on bad input). Forgetting a source or a memory through the approval flow leaves no episode resting
// on it on any of those paths.
//
// The scenario (days in UTC, relative to the real clock, so "last week" is always last week):
//   20 days before this week's Monday, "Coffee posters": "Let's go with matte paper prints."
//   last week's Thursday, "Coffee posters": "Let's go with warm terracotta colors."
//   last week's Thursday, "Jazz teaser":    "I prefer slow saxophone music."
//   this week, "Coffee posters":            "Let's go with cool mint colors." (supersedes terracotta)
//   yesterday, the thread:                  "Our brand tone is playful."
//   in March, the thread:                   "I prefer serif typefaces."
//   a colleague, "Coffee posters":          "Let's go with neon green colors." (never the owner's)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createToken } from '../server/auth/create-token.ts';
import { routeOffline } from '../server/routing/offline-router.ts';
import { buildWorkerInput } from '../server/runtime/context.ts';
import { correctMemory } from '../server/services/memory/correct-memory.ts';
import { asksAboutEarlierWork, retrieveEpisodes, timeWindow } from '../server/services/memory/episodes.ts';
import { extractEvidence } from '../server/services/memory/extract-memories.ts';
import { recordEvidence } from '../server/services/memory/store.ts';
import { renderMemorySection } from '../server/services/memory/worker-context.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';

const Episodes = graphql(`
  query EpisodesList($id: ID!, $query: String, $from: DateTime, $to: DateTime, $taskId: ID, $subject: String, $first: Int, $after: String) {
    workspace(id: $id) {
      episodes(query: $query, from: $from, to: $to, taskId: $taskId, subject: $subject, first: $first, after: $after) {
        pageInfo { hasNextPage endCursor }
        edges { node { id summaryId day text subjectKey value origin recordedAt task { id title } memory { id } sources { id status excerpt } } }
      }
    }
  }
`);
const Send = graphql(`
  mutation EpisodesSend($input: SendMessageInput!) {
    sendMessage(input: $input) { route { outcome } reply { text language } }
  }
`);
const ForgetEvidence = graphql(`
  mutation EpisodesForgetEvidence($input: ForgetEvidenceInput!) {
    forgetEvidence(input: $input) { approval { id status } }
  }
`);
const ForgetMemory = graphql(`
  mutation EpisodesForgetMemory($input: ForgetMemoryInput!) {
    forgetMemory(input: $input) { approval { id status } }
  }
`);
const Resolve = graphql(`
  mutation EpisodesResolve($input: ResolveApprovalInput!) {
    resolveApproval(input: $input) { approval { id status } }
  }
`);

const DAY = 86_400_000;
const NOW = new Date();
const today = new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth(), NOW.getUTCDate()));
const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * DAY);
const lastThursday = new Date(monday.getTime() - 4 * DAY + 12 * 3600_000);
const older = new Date(monday.getTime() - 20 * DAY + 12 * 3600_000);
const thisWeek = new Date(Math.max(monday.getTime() + 3600_000, NOW.getTime() - 60_000));
const yesterday = new Date(today.getTime() - 12 * 3600_000);
const marchYear = NOW.getUTCMonth() >= 2 ? NOW.getUTCFullYear() : NOW.getUTCFullYear() - 1;
const inMarch = new Date(Math.min(Date.UTC(marchYear, 2, 1, 6), NOW.getTime() - 60_000));

let t: TestApp;
let n = 0;
const ws = () => toGlobalId('Workspace', t.a.workspaceId);
const ids: Record<string, string> = {};
let coffee: string;
let jazz: string;
let colleague: { id: string; token: string };

/** A source said at a time (as its message would be), then its extraction job's work. */
async function said(text: string, at: Date, taskId: string | null, userId = t.a.ownerId): Promise<string> {
  const ev = await t.app.deps.prisma.$transaction((tx) => recordEvidence(tx, { workspaceId: t.a.workspaceId, userId, taskId, kind: 'MESSAGE', text, occurredAt: at }));
  const out = await extractEvidence(t.app.deps.memory, ev.id);
  assert.equal(out.status, 'APPLIED', `${text} was learnt`);
  return ev.id;
}
const retrieve = (text: string, extra: Record<string, unknown> = {}) =>
  retrieveEpisodes(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, text, ...extra });
const values = (eps: { value: string }[]) => eps.map((e) => e.value).sort();
const list = async (vars: Record<string, unknown>, token = t.a.ownerToken) => (await gqlOk(t.url, token, Episodes, { id: ws(), ...vars })).workspace!.episodes;
const ask = async (text: string) => (await gqlOk(t.url, t.a.ownerToken, Send, { input: { workspaceId: ws(), text, idempotencyKey: `ep-${++n}` } })).sendMessage;
const worker = async (taskId: string) => {
  const input = await buildWorkerInput(t.app.deps.prisma, taskId, undefined, { capabilities: null }, t.app.deps.memory.context);
  return input.messages.map((m) => String(m.content)).join('\n');
};
const forgetEvidence = async (evidenceId: string) => {
  const r = await gqlOk(t.url, t.a.ownerToken, ForgetEvidence, { input: { evidenceId: toGlobalId('MemoryEvidence', evidenceId) } });
  await gqlOk(t.url, t.a.ownerToken, Resolve, { input: { approvalId: r.forgetEvidence.approval.id, decision: 'APPROVE', idempotencyKey: `fe-${++n}` } });
};
const forgetMemory = async (memoryId: string) => {
  const r = await gqlOk(t.url, t.a.ownerToken, ForgetMemory, { input: { memoryId: toGlobalId('Memory', memoryId) } });
  await gqlOk(t.url, t.a.ownerToken, Resolve, { input: { approvalId: r.forgetMemory.approval.id, decision: 'APPROVE', idempotencyKey: `fm-${++n}` } });
};

before(async () => {
  t = await startTestApp('memepisodes', {}, { memory: { timeoutMs: 30_000 } });
  const prisma = t.app.deps.prisma;
  // Worked on last week: a question naming last week finds them in the router's index too.
  const task = (title: string, goal: string) =>
    prisma.task.create({ data: { workspaceId: t.a.workspaceId, title, goal, status: 'WAITING', createdById: t.a.ownerId, createdAt: lastThursday, lastActivityAt: lastThursday } });
  coffee = (await task('Coffee posters', 'three retro posters for a coffee brand')).id;
  jazz = (await task('Jazz teaser', 'a short teaser video for the jazz night')).id;
  const user = await prisma.user.create({ data: { email: 'colleague-ep@example.test', name: 'Colleague' } });
  await prisma.membership.create({ data: { workspaceId: t.a.workspaceId, userId: user.id, role: 'MEMBER' } });
  colleague = { id: user.id, token: (await createToken(prisma, { workspaceId: t.a.workspaceId, userId: user.id, name: 'c', scopes: ['READ', 'WRITE'] })).token };
  // In the order it was said: each statement is applied to its chain as of its time.
  ids.march = await said('I prefer serif typefaces.', inMarch, null);
  ids.matte = await said("Let's go with matte paper prints.", older, coffee);
  ids.terracotta = await said("Let's go with warm terracotta colors.", lastThursday, coffee);
  ids.sax = await said('I prefer slow saxophone music.', lastThursday, jazz);
  ids.tone = await said('Our brand tone is playful.', yesterday, null);
  ids.mint = await said("Let's go with cool mint colors.", thisWeek, coffee);
  ids.neon = await said("Let's go with neon green colors.", lastThursday, coffee, colleague.id);
});
after(async () => {
  await t?.close();
});

describe('reading a time from a question (pure)', () => {
  const now = new Date('2026-12-01T10:00:00Z'); // a Tuesday
  const span = (q: string) => {
    const w = timeWindow(q, now).window;
    return w ? `${w.from.toISOString().slice(0, 10)}..${w.to.toISOString().slice(0, 10)}` : null;
  };
  test('"last week", "yesterday" and "in March" in EN, DE, FR, ES, ZH and JA; nothing where no time is named', () => {
    for (const q of [
      'what did we settle on for the coffee posters last week?',
      'was haben wir letzte Woche für die Kaffee-Poster entschieden?',
      "qu'avons-nous décidé pour les affiches la semaine dernière ?",
      '¿qué decidimos para los carteles la semana pasada?',
      '上周我们为咖啡海报定了什么？',
      '先週コーヒーのポスターで何を決めましたか？',
    ]) {
      assert.equal(span(q), '2026-11-23..2026-11-30', q);
    }
    for (const q of ['what did we decide yesterday?', 'was haben wir gestern entschieden?', "qu'avons-nous choisi hier ?", '¿qué elegimos ayer?', '昨天我们定了什么？', '昨日何を決めましたか？']) {
      assert.equal(span(q), '2026-11-30..2026-12-01', q);
    }
    for (const q of ['what did we pick in March?', 'was haben wir im März entschieden?', "qu'avons-nous choisi en mars ?", '¿qué elegimos en marzo?', '三月我们定了什么？', '3月に何を決めましたか？']) {
      assert.equal(span(q), '2026-03-01..2026-04-01', q);
    }
    assert.equal(span('what did we settle on for the coffee posters?'), null);
    assert.equal(span('what may we change?'), null, '"may" alone is no month');
    assert.equal(span('what did we pick in December?'), '2026-12-01..2026-12-01', 'the month in progress: up to now');
  });

  test('the router leaves a question about what was decided to the main thread, in six languages, even when it names a task', () => {
    const entry = (taskId: string, title: string, goal: string) => ({
      taskId, title, goal, summary: '', status: 'WAITING', kind: 'PERSISTENT' as const, language: 'en', objects: [], retrieval: 0.2,
      createdAt: new Date('2026-11-25T12:00:00Z'), lastActivityAt: new Date('2026-11-26T12:00:00Z'),
    });
    const index = [entry('coffee', 'Coffee posters', 'three retro posters for a coffee brand'), entry('jazz', 'Jazz teaser', 'a short teaser video for the jazz night')];
    for (const q of [
      'what did we settle on for the coffee posters last week?',
      'was haben wir letzte Woche für die Kaffee-Poster entschieden?',
      "qu'avons-nous décidé pour les affiches de café la semaine dernière ?",
      '¿qué decidimos para los carteles de café la semana pasada?',
      '上周我们为咖啡海报定了什么？',
      '先週コーヒーのポスターで何を決めましたか？',
    ]) {
      assert.equal(routeOffline(q, index, now).outcome, 'ANSWER', q);
    }
    // A statement of a decision is still news for the task; a request beside the question is work.
    assert.equal(routeOffline('Für die Kaffee-Poster haben wir uns für Terrakotta entschieden.', index, now).outcome, 'EXISTING_TASK');
  });

  test('a question about earlier work is told apart from one about how things are', () => {
    for (const q of ['what did we settle on for the coffee posters?', 'was haben wir für die Poster entschieden?', '上周我们定了什么？', 'what about the posters last week?']) {
      assert.equal(asksAboutEarlierWork(q, now), true, q);
    }
    for (const q of ['what is our brand colour?', 'wo wohne ich?', 'how are the posters going?']) assert.equal(asksAboutEarlierWork(q, now), false, q);
  });
});

describe('retrieveEpisodes', () => {
  test('by subject and time: the coffee posters last week is terracotta, with its sources and summary, in all six languages', async () => {
    for (const q of [
      'what did we settle on for the coffee posters last week?',
      'was haben wir letzte Woche für die Kaffee-Poster entschieden?',
      "qu'avons-nous décidé pour les affiches de café la semaine dernière ?",
      '¿qué decidimos para los carteles de café la semana pasada?',
      '上周我们为咖啡海报定了什么？',
      '先週コーヒーのポスターで何を決めましたか？',
    ]) {
      const { window, episodes } = await retrieve(q);
      assert.ok(window, q);
      assert.deepEqual(values(episodes), ['warm terracotta colors'], `${q}: last week's, not this week's mint, the older matte paper, the jazz teaser's or a colleague's`);
      const [e] = episodes;
      assert.equal(e!.taskId, coffee);
      assert.equal(e!.taskTitle, 'Coffee posters');
      assert.deepEqual(e!.evidenceIds, [ids.terracotta]);
      assert.deepEqual(e!.citations.map((c) => [c.evidenceId, c.excerpt]), [[ids.terracotta, "Let's go with warm terracotta colors."]]);
      const summary = await t.app.deps.prisma.memorySummary.findUniqueOrThrow({ where: { id: e!.summaryId } });
      assert.equal(summary.phaseKey, `task:${coffee}:${lastThursday.toISOString().slice(0, 10)}`);
      assert.equal(e!.day.toISOString(), `${lastThursday.toISOString().slice(0, 10)}T00:00:00.000Z`);
    }
  });

  test('by subject alone: every phase of the coffee posters, best first; by task; by time alone; a text naming nothing finds nothing', async () => {
    assert.deepEqual(values((await retrieve('what did we settle on for the coffee posters?')).episodes), ['cool mint colors', 'matte paper prints', 'warm terracotta colors']);
    assert.deepEqual(values((await retrieveEpisodes(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, taskId: jazz })).episodes), ['slow saxophone music']);
    assert.deepEqual(values((await retrieve('what did we decide yesterday?')).episodes), ['playful']);
    assert.deepEqual(values((await retrieve('what did we pick in March?')).episodes), ['serif typefaces']);
    assert.deepEqual(values((await retrieve('what did we say about the saxophone?')).episodes), ['slow saxophone music']);
    assert.deepEqual((await retrieve('what did we decide?')).episodes, [], 'neither a time nor a subject: nothing, not everything');
    assert.deepEqual((await retrieve('what did we settle on for the bakery menu?')).episodes, [], 'a subject no episode has');
    const colleagues = await retrieveEpisodes(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: colleague.id, text: 'coffee posters last week' });
    assert.deepEqual(values(colleagues.episodes), ['neon green colors'], "each person's episodes are their own");
  });
});

describe("the worker's memory section", () => {
  test('shows earlier-work episodes with citations and records each version and source it showed in memory_uses', async () => {
    const section = await worker(coffee);
    assert.match(section, /Earlier work \(episodes/);
    const day = lastThursday.toISOString().slice(0, 10);
    const line = section.split('\n').find((l) => l.includes('terracotta'));
    assert.ok(line, 'the superseded terracotta decision is shown as an episode');
    assert.ok(line.startsWith(`- ${day}, in "Coffee posters": `), line);
    const terracotta = (await retrieve('coffee posters last week')).episodes[0]!;
    assert.ok(line.endsWith(`[e:${ids.terracotta!.slice(0, 8)}, s:${terracotta.summaryId.slice(0, 8)}]`), line);
    assert.match(section, /matte paper prints/);
    assert.doesNotMatch(section, /neon green/, "a colleague's episodes are not this task creator's");
    const uses = await t.app.deps.prisma.memoryUse.findMany({ where: { taskId: coffee, stepOrdinal: 0 } });
    // Terracotta is superseded: no current memory shows it, so only its episode can have put it here.
    assert.ok(uses.some((u) => u.versionId === terracotta.versionId), 'the episode\'s version is recorded');
    assert.ok(uses.some((u) => u.evidenceId === ids.terracotta), 'and its source');
    assert.ok(uses.some((u) => u.evidenceId === ids.matte));
  });

  test('what a correction replaced is not offered to the worker as earlier work (the person said it was wrong)', async () => {
    const prisma = t.app.deps.prisma;
    const menu = await prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'Menu cards', goal: 'menu cards for the bistro', status: 'WAITING', createdById: t.a.ownerId } });
    await said('Our brand font is Futura Condensed.', older, menu.id);
    const memory = await prisma.memory.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, subjectKey: 'brand.font' } });
    const viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) } as const;
    await correctMemory(t.app.deps, viewer as never, { memoryId: memory.id, value: 'Garamond', idempotencyKey: 'ep-fix' });
    const section = await worker(menu.id);
    assert.match(section, /Brand font: Garamond/);
    assert.doesNotMatch(section, /Futura/, "the task's own earlier phase said Futura, which the correction replaced");
    // The history itself keeps it: the API and a question still find what was said then.
    assert.deepEqual(values((await retrieveEpisodes(prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, taskId: menu.id })).episodes), ['Futura Condensed']);
    await prisma.task.update({ where: { id: menu.id }, data: { status: 'CANCELLED' } });
  });

  test('rendering is pure and stable: episodes oldest first, each with its day, place and citations', () => {
    const ep = (day: string, task: string | null, text: string) => ({ summaryId: `${day.replace(/-/g, '')}aaaa`, day: new Date(`${day}T00:00:00Z`), taskTitle: task, text, evidenceIds: ['0123456789abcdef'] });
    const a = renderMemorySection(null, [], [ep('2026-11-26', 'Coffee posters', 'The user noted: Prefers warm terracotta colors.'), ep('2026-03-01', null, 'The user noted: Prefers serif.')]);
    assert.equal(
      a,
      [
        '<long-term-memory>',
        "Long-term memory about the user and workspace. Background only: the task brief and the user's latest messages take precedence. Cite [e:<id>] when you rely on a memory.",
        'Earlier work (episodes, oldest first; what was said then, which later statements may have changed):',
        '- 2026-03-01, in the main thread: The user noted: Prefers serif. [e:01234567, s:20260301]',
        '- 2026-11-26, in "Coffee posters": The user noted: Prefers warm terracotta colors. [e:01234567, s:20261126]',
        '</long-term-memory>',
      ].join('\n'),
    );
    assert.equal(renderMemorySection(null, [], []), null);
  });
});

describe('the main thread answers questions about earlier work', () => {
  test('from the episodes, with citations, in the asker\'s language', async () => {
    const terracotta = (await retrieve('coffee posters last week')).episodes[0]!;
    const cites = `[e:${ids.terracotta!.slice(0, 8)}, s:${terracotta.summaryId.slice(0, 8)}]`;
    const cases: [string, string, RegExp][] = [
      ['what did we settle on for the coffee posters last week?', 'en', /^From earlier work:\n- .*, in “Coffee posters”: You prefer: warm terracotta colors /],
      ['was haben wir letzte Woche für die Kaffee-Poster entschieden?', 'de', /^Aus früherer Arbeit:\n- .*, in „Coffee posters“: Du bevorzugst: warm terracotta colors /],
      ["qu'avons-nous décidé pour les affiches de café la semaine dernière ?", 'fr', /^D'après le travail précédent :\n- le .*, dans « Coffee posters » : .* : warm terracotta colors /],
      ['¿qué decidimos para los carteles de café la semana pasada?', 'es', /^Del trabajo anterior:\n- .*, en «Coffee posters»: .*: warm terracotta colors /],
      ['上周我们为咖啡海报定了什么？', 'zh', /^之前的工作记录：\n- .*，在「Coffee posters」中：.*：warm terracotta colors /],
      ['先週コーヒーのポスターで何を決めましたか？', 'ja', /^以前の作業の記録：\n- .*、「Coffee posters」で：.*：warm terracotta colors /],
    ];
    for (const [q, lang, expected] of cases) {
      const r = await ask(q);
      assert.equal(r.route.outcome, 'ANSWER', q);
      assert.equal(r.reply?.language, lang, q);
      assert.match(r.reply!.text, expected, q);
      assert.ok(r.reply!.text.includes(cites), `${q}: cites the source and the summary`);
      assert.doesNotMatch(r.reply!.text, /mint|matte|saxophone|neon/, q);
    }
  });
});

describe('Workspace.episodes', () => {
  test('typed, with citations; filtered by words and time, task, subject and window; paged', async () => {
    const found = await list({ query: 'coffee posters last week' });
    assert.equal(found.edges.length, 1);
    const e = found.edges[0]!.node;
    assert.equal(e.value, 'warm terracotta colors');
    assert.equal(e.subjectKey, 'preference.color');
    assert.equal(e.origin, 'USER_STATED');
    assert.equal(e.text, 'The user noted: Prefers warm terracotta colors.');
    assert.equal(e.task?.id, toGlobalId('Task', coffee));
    assert.deepEqual(e.sources.map((s) => [s.id, s.status, s.excerpt]), [[toGlobalId('MemoryEvidence', ids.terracotta!), 'ACTIVE', "Let's go with warm terracotta colors."]]);
    assert.ok(e.memory?.id, 'the memory it rests on');
    assert.equal(e.day, `${lastThursday.toISOString().slice(0, 10)}T00:00:00.000Z`);

    const byTask = await list({ taskId: toGlobalId('Task', coffee) });
    assert.deepEqual(values(byTask.edges.map((x) => x.node)), ['cool mint colors', 'matte paper prints', 'warm terracotta colors']);
    assert.deepEqual(byTask.edges.map((x) => x.node.value), ['cool mint colors', 'warm terracotta colors', 'matte paper prints'], 'newest first');
    assert.deepEqual(values((await list({ subject: 'brand.' })).edges.map((x) => x.node)), ['Futura Condensed', 'Garamond', 'playful']);
    assert.deepEqual(values((await list({ subject: 'brand.tone' })).edges.map((x) => x.node)), ['playful']);
    const windowed = await list({ from: monday.toISOString(), to: new Date(NOW.getTime() + DAY).toISOString(), taskId: toGlobalId('Task', coffee) });
    assert.deepEqual(values(windowed.edges.map((x) => x.node)), ['cool mint colors']);

    const all = await list({});
    assert.equal(all.edges.length, 8, "the owner's eight episodes (the scenario's six, the font and its correction), not the colleague's");
    const seen: string[] = [];
    let after: string | null | undefined;
    for (;;) {
      const page = await list({ first: 4, after });
      seen.push(...page.edges.map((x) => x.node.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    assert.deepEqual(seen, all.edges.map((x) => x.node.id), 'pages cover the list once, in order');
    assert.deepEqual(values((await list({}, colleague.token)).edges.map((x) => x.node)), ['neon green colors']);
  });

  test('bad input is BAD_USER_INPUT naming the argument; another workspace or its task is NOT_FOUND', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ query: '   ' }, 'query'],
      [{ query: 'x'.repeat(301) }, 'query'],
      [{ from: NOW.toISOString(), to: NOW.toISOString() }, 'to'],
      [{ taskId: ws() }, 'taskId'],
      [{ taskId: 'nope' }, 'taskId'],
      [{ subject: 'Brand Colors' }, 'subject'],
      [{ first: 1000 }, 'first'],
      [{ after: 'garbage' }, 'after'],
    ];
    for (const [vars, argument] of bad) {
      const r = await gql(t.url, t.a.ownerToken, Episodes, { id: ws(), ...vars });
      assert.equal(r.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(vars).slice(0, 60));
      assert.equal(r.errors?.[0]?.extensions?.argument, argument, JSON.stringify(vars).slice(0, 60));
    }
    const badDate = await gql(t.url, t.a.ownerToken, Episodes, { id: ws(), from: 'last tuesday' });
    assert.equal(badDate.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const otherTask = await t.app.deps.prisma.task.create({ data: { workspaceId: t.b.workspaceId, title: 'Theirs', goal: 'x', status: 'WAITING' } });
    assert.equal((await gql(t.url, t.a.ownerToken, Episodes, { id: ws(), taskId: toGlobalId('Task', otherTask.id) })).errors?.[0]?.extensions?.code, 'NOT_FOUND');
    assert.equal((await gql(t.url, t.b.ownerToken, Episodes, { id: ws() })).errors?.[0]?.extensions?.code, 'NOT_FOUND');
  });
});

describe('forgetting clears episodes from every path', () => {
  test('forgetting the terracotta source (approved): no episode resting on it from the service, the worker, the thread or the API; the step that used it is withheld', async () => {
    const before = (await retrieve('coffee posters last week')).episodes[0]!;
    // The step the model produced from the context that showed the episode (as the engine commits it).
    const turn = await t.app.deps.prisma.turn.create({ data: { taskId: coffee, workspaceId: t.a.workspaceId, number: 1, status: 'COMPLETED' } });
    await t.app.deps.prisma.step.create({
      data: { turnId: turn.id, taskId: coffee, index: 0, decision: { content: 'Going terracotta as settled last week.', toolCalls: [] }, requestDigest: 'x', request: { messages: 'terracotta' }, model: 'scripted', generation: 1 },
    });
    await forgetEvidence(ids.terracotta!);

    assert.deepEqual((await retrieve('what did we settle on for the coffee posters last week?')).episodes, []);
    const coffeeEpisodes = await retrieve('what did we settle on for the coffee posters?');
    assert.ok(coffeeEpisodes.episodes.every((e) => !e.evidenceIds.includes(ids.terracotta!) && e.versionId !== before.versionId));
    assert.deepEqual(values(coffeeEpisodes.episodes), ['cool mint colors', 'matte paper prints']);
    assert.equal(await t.app.deps.prisma.memorySummarySentence.count({ where: { evidenceIds: { has: ids.terracotta! } } }), 0);

    const section = await worker(coffee);
    assert.doesNotMatch(section, /terracotta/, 'neither as an episode nor in the withheld step');
    assert.match(section, /matte paper prints/);
    const step = await t.app.deps.prisma.step.findFirstOrThrow({ where: { turnId: turn.id } });
    assert.match(JSON.stringify(step.decision), /withheld/, 'the step that relied on the episode was found through memory_uses');

    const r = await ask('what did we settle on for the coffee posters last week?');
    assert.doesNotMatch(r.reply!.text, /terracotta/);
    assert.doesNotMatch(r.reply!.text, new RegExp(`e:${ids.terracotta!.slice(0, 8)}`));

    const api = await list({ taskId: toGlobalId('Task', coffee) });
    assert.deepEqual(values(api.edges.map((x) => x.node)), ['cool mint colors', 'matte paper prints']);
    assert.deepEqual(await list({ query: 'terracotta' }).then((p) => p.edges), []);
  });

  test('forgetting a memory (approved): its episodes go from the service, the thread and the API', async () => {
    const sax = (await retrieve('what did we say about the saxophone?')).episodes[0]!;
    assert.ok((await worker(jazz)).includes('saxophone'));
    await forgetMemory(sax.memoryId);
    assert.deepEqual((await retrieve('what did we say about the saxophone?')).episodes, []);
    assert.deepEqual((await retrieveEpisodes(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, taskId: jazz })).episodes, []);
    assert.doesNotMatch(await worker(jazz), /saxophone/);
    assert.doesNotMatch((await ask('what did we settle on for the jazz teaser last week?')).reply!.text, /saxophone/);
    assert.deepEqual((await list({ taskId: toGlobalId('Task', jazz) })).edges, []);
  });
});
