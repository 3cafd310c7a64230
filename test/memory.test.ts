// Long-term memory: extraction validated one by one, version chains (knowledge update, validity
// over time, CONFIRM without a new version), stated vs inferred, scope isolation, the durable
// extraction job (enqueued with the message, retried, applied once) and graceful degradation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Viewer } from '../server/auth/viewer.ts';
import { buildWorkerInput } from '../server/runtime/context.ts';
import { extractCandidates, validateCandidates } from '../server/services/memory/extractor.ts';
import { extractEvidence } from '../server/services/memory/extract-memories.ts';
import { forgetMemoryNow } from '../server/services/memory/forget.ts';
import { MEMORY_QUEUE } from '../server/services/memory/jobs.ts';
import { retrieveMemories } from '../server/services/memory/retrieve-memories.ts';
import { recordEvidence } from '../server/services/memory/store.ts';
import { sendMessage } from '../server/services/messages/send-message.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { waitFor } from './helpers/wait.ts';

let t: TestApp;
let viewer: Viewer;
let n = 0;

before(async () => {
  t = await startTestApp('memory', {}, { memory: { faults: {}, retryDelaySeconds: 1, timeoutMs: 30_000 } });
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
});
after(async () => {
  await t.close();
});

async function say(text: string, at: string, who = { ws: t.a.workspaceId, user: t.a.ownerId }, kind: 'MESSAGE' | 'OBSERVATION' = 'MESSAGE') {
  const ev = await t.app.deps.prisma.$transaction((tx) => recordEvidence(tx, { workspaceId: who.ws, userId: who.user, kind, text, occurredAt: new Date(at) }));
  const r = await extractEvidence(t.app.deps.memory, ev.id);
  return { ev, r };
}
const ask = (q: Partial<Parameters<typeof retrieveMemories>[1]>, who = { ws: t.a.workspaceId, user: t.a.ownerId }) =>
  retrieveMemories(t.app.deps.prisma, { workspaceId: who.ws, userId: who.user, ...q });

describe('extraction', () => {
  test('one bad candidate never drops the good ones: malformed, unsupported and conflicting are rejected one by one', () => {
    const text = 'I live in Porto. I prefer matte paper.';
    const raw = [
      ...extractCandidates(text),
      { kind: 'FACT', scope: 'USER', subjectKey: 'user.name' }, // malformed
      { kind: 'FACT', scope: 'USER', subjectKey: 'user.work', value: 'astronaut', origin: 'USER_STATED', confidence: 0.9, mode: 'set', quote: 'I work as an astronaut' }, // not in the source
      { kind: 'PREFERENCE', scope: 'USER', subjectKey: 'preference.print', value: 'glossy paper', origin: 'USER_STATED', confidence: 0.9, mode: 'set', quote: 'I prefer matte paper.' }, // value unsupported
    ];
    const { accepted, rejected } = validateCandidates(raw, text, 'MESSAGE');
    assert.deepEqual(accepted.map((c) => [c.subjectKey, c.value]).sort(), [['preference.print', 'matte paper'], ['user.residence', 'Porto']]);
    assert.deepEqual(rejected.map((r) => r.reason).sort(), ['MALFORMED', 'UNSUPPORTED', 'UNSUPPORTED']);
    const conflict = validateCandidates(extractCandidates('I live in Rome; I live in Oslo. I prefer serif fonts.'), 'I live in Rome; I live in Oslo. I prefer serif fonts.', 'MESSAGE');
    assert.deepEqual(conflict.accepted.map((c) => c.subjectKey), ['preference.typography']);
    assert.deepEqual(conflict.rejected.map((r) => r.reason), ['CONFLICT', 'CONFLICT']);
  });

  test('a temporary instruction is not stored as a lasting preference; the lasting one next to it is', async () => {
    const { r } = await say("I usually prefer low-saturation palettes. Let's try a saturated red this time.", '2026-01-05T10:00:00Z');
    assert.equal(r.status, 'APPLIED');
    assert.deepEqual(r.rejected.map((x) => x.reason), ['TEMPORARY']);
    const prefs = await ask({ subject: 'preference.color' });
    assert.deepEqual(prefs.map((p) => p.value), ['low-saturation palettes']);
    assert.equal((await ask({ text: 'saturated red' })).some((m) => /red/.test(m.content)), false);
  });

  test('an inference is never recorded as a user statement', () => {
    const text = 'The user generated six cyberpunk images in a row; I prefer cyberpunk style.';
    const stated = extractCandidates(text, 'OBSERVATION').map((c) => ({ ...(c as object), origin: 'USER_STATED' }));
    const v = validateCandidates(stated, text, 'OBSERVATION');
    assert.equal(v.accepted.length, 0);
    assert.ok(v.rejected.every((r) => r.reason === 'ORIGIN_MISMATCH'));
    assert.ok(validateCandidates(extractCandidates(text, 'OBSERVATION'), text, 'OBSERVATION').accepted.every((c) => c.origin === 'INFERRED'));
  });
});

describe('version chains', () => {
  test('strict knowledge update: Lisbon then Berlin; "where do I live?" is only Berlin, as of March it is Lisbon', async () => {
    const lisbon = await say('I live in Lisbon.', '2026-02-01T09:00:00Z');
    const berlin = await say('Actually I moved to Berlin.', '2026-04-10T09:00:00Z');
    const now = await ask({ subject: 'user.residence' });
    assert.deepEqual(now.map((m) => m.value), ['Berlin']);
    assert.deepEqual(now[0]!.citations.map((c) => [c.evidenceId, c.role]), [[berlin.ev.id, 'ORIGIN']]);
    const march = await ask({ subject: 'user.residence', asOf: new Date('2026-03-15T00:00:00Z') });
    assert.deepEqual(march.map((m) => m.value), ['Lisbon']);
    assert.equal(march[0]!.citations[0]!.evidenceId, lisbon.ev.id);
    const chain = await t.app.deps.prisma.memoryVersion.findMany({ where: { memoryId: now[0]!.memoryId }, orderBy: { number: 'asc' } });
    assert.deepEqual(chain.map((v) => [v.value, v.status]), [['Lisbon', 'SUPERSEDED'], ['Berlin', 'CURRENT']]);
    assert.equal(chain[0]!.validTo?.toISOString(), '2026-04-10T09:00:00.000Z');
  });

  test('a mere confirmation adds CONFIRM support without a new version', async () => {
    const before = await ask({ subject: 'user.residence' });
    const again = await say('Yes, I live in Berlin.', '2026-05-01T09:00:00Z');
    const after = await ask({ subject: 'user.residence' });
    assert.equal(after[0]!.versionId, before[0]!.versionId);
    assert.deepEqual(after[0]!.citations.map((c) => c.role), ['ORIGIN', 'CONFIRM']);
    assert.equal(after[0]!.citations[1]!.evidenceId, again.ev.id);
  });

  test('stated wins over inferred; the inference can be forgotten alone', async () => {
    await say('The user keeps choosing watercolor textures; I prefer watercolor style.', '2026-05-02T09:00:00Z', undefined, 'OBSERVATION');
    const inferredOnly = await ask({ subject: 'preference.style' });
    assert.deepEqual(inferredOnly.map((m) => [m.value, m.origin]), [['watercolor style', 'INFERRED']]);
    await say('I prefer a flat vector style.', '2026-05-03T09:00:00Z');
    const both = await ask({ subject: 'preference.style' });
    assert.deepEqual(both.map((m) => [m.value, m.origin]), [['a flat vector style', 'USER_STATED']], 'the stated one wins');
    await t.app.deps.prisma.$transaction((tx) => forgetMemoryNow(tx, { workspaceId: t.a.workspaceId, memoryId: inferredOnly[0]!.memoryId }));
    const rows = await t.app.deps.prisma.memoryVersion.findMany({ where: { memory: { subjectKey: 'preference.style', workspaceId: t.a.workspaceId } }, include: { memory: true } });
    assert.deepEqual(rows.map((r) => [r.memory.origin, r.status]).sort(), [['INFERRED', 'FORGOTTEN'], ['USER_STATED', 'CURRENT']]);
  });
});

describe('scope isolation', () => {
  test("nothing of one user or workspace surfaces for another", async () => {
    await say('Our brand color is teal. I live in Ghent.', '2026-05-04T09:00:00Z', { ws: t.b.workspaceId, user: t.b.ownerId });
    const other = await t.app.deps.prisma.user.create({ data: { email: 'colleague@example.test', name: 'Colleague' } });
    await t.app.deps.prisma.membership.create({ data: { workspaceId: t.a.workspaceId, userId: other.id, role: 'MEMBER' } });
    await say('I live in Kyoto.', '2026-05-04T09:00:00Z', { ws: t.a.workspaceId, user: other.id });
    const mine = await ask({});
    assert.equal(mine.some((m) => /teal|Ghent|Kyoto/.test(m.content)), false);
    assert.equal((await ask({ text: 'teal Ghent Kyoto' })).length, 0);
    const colleague = await ask({ subject: 'user.residence' }, { ws: t.a.workspaceId, user: other.id });
    assert.deepEqual(colleague.map((m) => m.value), ['Kyoto']);
  });
});

describe('durable extraction', () => {
  test('a user message enqueues extraction in its transaction; a failing extraction is retried and applied exactly once', async () => {
    const task = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'Spring flyer', goal: 'flyer', status: 'WAITING', createdById: t.a.ownerId } });
    t.app.deps.memory.faults!.failNextExtractions = 1;
    const sent = await sendMessage(t.app.deps, viewer, { workspaceId: t.a.workspaceId, text: 'Our brand font is Futura.', taskId: task.id, idempotencyKey: `m-${++n}` });
    const ev = await t.app.deps.prisma.memoryEvidence.findUniqueOrThrow({ where: { messageId: sent.messageId } });
    const jobs = await t.app.deps.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND data->>'evidenceId' = $2`, MEMORY_QUEUE, ev.id);
    assert.equal(jobs[0]!.n, 1, 'the job was committed with the message');
    const worker = await t.app.startWorker({ concurrency: 1 });
    try {
      await waitFor(() => t.app.deps.prisma.memoryExtraction.findFirst({ where: { evidenceId: ev.id } }), 'the extraction, after its retry', { timeoutMs: 30_000, intervalMs: 100 });
    } finally {
      await worker.stop();
    }
    assert.equal(t.app.deps.memory.faults!.failNextExtractions, 0, 'the first attempt failed');
    assert.equal(await t.app.deps.prisma.memoryExtraction.count({ where: { evidenceId: ev.id } }), 1);
    // Running it again (a duplicate delivery) changes nothing.
    assert.equal((await extractEvidence(t.app.deps.memory, ev.id)).status, 'ALREADY_APPLIED');
    const fonts = await t.app.deps.prisma.memoryVersion.findMany({ where: { memory: { subjectKey: 'brand.font', workspaceId: t.a.workspaceId } } });
    assert.deepEqual(fonts.map((f) => f.value), ['Futura']);
  });

  test('a memory retrieval slower than the timeout: the step context goes on without it and the journal says so', async () => {
    const { MemoryWorkerContext } = await import('../server/services/memory/worker-context.ts');
    const slow = new MemoryWorkerContext({ prisma: t.app.deps.prisma, notifier: t.app.deps.notifier, log: t.app.deps.log }, { timeoutMs: 50, retrievalDelayMs: 2000 });
    const task = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'Brand poster', goal: 'poster', createdById: t.a.ownerId } });
    const input = await buildWorkerInput(t.app.deps.prisma, task.id, undefined, { capabilities: null }, slow);
    assert.equal(input.messages.some((m) => String(m.content).includes('<long-term-memory>')), false);
    const ev = await t.app.deps.prisma.taskEvent.findFirst({ where: { taskId: task.id, type: 'MEMORY_UNAVAILABLE' } });
    assert.ok(ev, 'the journal records that memory was skipped');
    const fast = await buildWorkerInput(t.app.deps.prisma, task.id, undefined, { capabilities: null }, t.app.deps.memory.context);
    const section = String(fast.messages[1]!.content);
    assert.match(section, /<long-term-memory>[\s\S]*Brand font: Futura[\s\S]*\[e:[0-9a-f]{8}\]/);
    assert.ok((await t.app.deps.prisma.memoryUse.count({ where: { taskId: task.id } })) > 0, 'what the step used is recorded');
  });
});
