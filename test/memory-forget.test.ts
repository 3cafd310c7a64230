// Forgetting: revoking a source removes every derived fact, summary sentence, index row, embedding
// and profile entry (a token unique to it is found in no table), shared support, undoing a
// supersession, the navy → navy-and-cream example, no collateral damage, cached prefixes
// and the agent's own earlier replies, and the confirmation card.
//
// What the "any table" scan excludes, and why: the chat history of the original message — its
// `messages` row, the task's delivery of it (`inbox_items` keyed `message:<id>`) and the journal
// event recording its receipt (`task_events` MESSAGE_RECEIVED with its messageId). Forgetting is
// about memory use; deleting chat history is a separate lifecycle. Everything memory owns (its
// copy of the text in memory_evidence included) is cleared.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import type { Viewer } from '../server/auth/viewer.ts';
import { buildWorkerInput } from '../server/runtime/context.ts';
import { approvedActionHandlers } from '../server/services/approvals/actions.ts';
import { extractEvidence } from '../server/services/memory/extract-memories.ts';
import { forgetEvidenceNow } from '../server/services/memory/forget.ts';
import { requestForgetEvidence } from '../server/services/memory/request-forget.ts';
import { retrieveMemories } from '../server/services/memory/retrieve-memories.ts';
import { sendMessage } from '../server/services/messages/send-message.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

let t: TestApp;
let viewer: Viewer;
let n = 0;
const fakeEmbedder = { model: 'fake', embed: async (texts: string[]) => texts.map((s) => [s.length, 1, 2]) };

before(async () => {
  t = await startTestApp('memforget', {}, { embedder: fakeEmbedder, memory: { timeoutMs: 30_000 } });
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
});
after(async () => {
  await t.close();
});

let task: { id: string };
/** Sends a message from a task panel (the real path), then runs its extraction job's work. */
async function tell(text: string) {
  task ??= await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'Brand kit', goal: 'brand kit', status: 'WAITING', createdById: t.a.ownerId } });
  const sent = await sendMessage(t.app.deps, viewer, { workspaceId: t.a.workspaceId, text, taskId: task.id, idempotencyKey: `f-${++n}` });
  const ev = await t.app.deps.prisma.memoryEvidence.findUniqueOrThrow({ where: { messageId: sent.messageId } });
  await extractEvidence(t.app.deps.memory, ev.id);
  return { messageId: sent.messageId, evidenceId: ev.id };
}
const forget = (evidenceId: string) => t.app.deps.prisma.$transaction((tx) => forgetEvidenceNow(tx, { workspaceId: t.a.workspaceId, evidenceId }));
const current = (subject: string) => retrieveMemories(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, subject });

/** Every row of every table (all schemas but the catalogs) whose text contains the token. */
async function scan(token: string, messageIds: string[]): Promise<string[]> {
  const c = new pg.Client({ connectionString: t.dbUrl });
  await c.connect();
  try {
    const tables = await c.query<{ s: string; t: string }>(
      // A partitioned table is scanned through its parent (which reads every partition), once.
      `SELECT table_schema AS s, table_name AS t FROM information_schema.tables x WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
         AND NOT EXISTS (SELECT 1 FROM pg_class k JOIN pg_namespace n ON n.oid = k.relnamespace WHERE n.nspname = x.table_schema AND k.relname = x.table_name AND k.relispartition)`,
    );
    const hits: string[] = [];
    for (const { s, t: name } of tables.rows) {
      const rows = await c.query(`SELECT to_jsonb(x) AS j FROM "${s}"."${name}" x WHERE to_jsonb(x)::text ILIKE $1`, [`%${token}%`]);
      for (const r of rows.rows) {
        const j = r.j as Record<string, unknown>;
        const excluded =
          (name === 'messages' && messageIds.includes(String(j.id))) ||
          (name === 'inbox_items' && messageIds.some((m) => j.idempotency_key === `message:${m}`)) ||
          (name === 'task_events' && j.type === 'MESSAGE_RECEIVED' && messageIds.includes(String((j.payload as { messageId?: string })?.messageId)));
        if (!excluded) hits.push(`${s}.${name}: ${JSON.stringify(j).slice(0, 200)}`);
      }
    }
    return hits;
  } finally {
    await c.end();
  }
}

describe('forgetting a source', () => {
  test('forget "navy" after navy-and-cream → the merged version is cleared and rebuilt from what remains; the token is in no table', async () => {
    const navy = await tell("Our brand's main color is navy.");
    const cream = await tell('Pair it with cream white for a softer overall look.');
    const merged = await current('brand.colors');
    assert.deepEqual(merged.map((m) => m.value), ['navy and cream white']);
    assert.deepEqual(merged[0]!.citations.map((c) => c.role), ['REFINE']);
    // The profile, a summary, an embedding, the index and a worker context all hold it now.
    const before = await buildWorkerInput(t.app.deps.prisma, task.id, undefined, { capabilities: null }, t.app.deps.memory.context);
    assert.match(String(before.messages[1]!.content), /navy/);
    assert.ok((await t.app.deps.prisma.memoryEmbedding.count()) > 0);
    assert.ok((await scan('navy', [navy.messageId])).length > 0, 'the scan sees derived copies before forgetting');
    const profileBefore = (await t.app.deps.memory.context.profilePrefix(t.a.workspaceId, t.a.ownerId))!;

    const out = await forget(navy.evidenceId);
    assert.equal(out.clearedVersions, 2, 'v1 and the merge derived from it');
    const rebuilt = await current('brand.colors');
    assert.deepEqual(rebuilt.map((m) => m.value), ['cream white']);
    assert.deepEqual(rebuilt[0]!.citations.map((c) => [c.evidenceId, c.role]), [[cream.evidenceId, 'ORIGIN']]);
    assert.deepEqual(await scan('navy', [navy.messageId]), [], 'no derived fact, summary sentence, index row, embedding, profile or cache row keeps it');
    const profileAfter = (await t.app.deps.memory.context.profilePrefix(t.a.workspaceId, t.a.ownerId))!;
    assert.ok(profileAfter.version > profileBefore.version, 'the profile version moved, so no cached prefix is reused');
    assert.doesNotMatch(profileAfter.text, /navy/);
    assert.equal((await retrieveMemories(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, text: 'navy' })).length, 0);
    const ctx = await buildWorkerInput(t.app.deps.prisma, task.id, undefined, { capabilities: null }, t.app.deps.memory.context);
    assert.doesNotMatch(JSON.stringify(ctx.messages.map((m) => m.content)), /navy/, 'nor the next context (the message itself is withheld)');
    // Re-extraction of the forgotten content is suppressed (tombstone of the source text).
    const again = await t.app.deps.prisma.memoryEvidence.create({
      data: { workspaceId: t.a.workspaceId, userId: t.a.ownerId, kind: 'MESSAGE', text: "Our brand's main color is navy.", contentHash: (await t.app.deps.prisma.memoryEvidence.findUniqueOrThrow({ where: { id: navy.evidenceId } })).contentHash, occurredAt: new Date() },
    });
    assert.equal((await extractEvidence(t.app.deps.memory, again.id)).status, 'SUPPRESSED');
    await t.app.deps.prisma.memoryEvidence.delete({ where: { id: again.id } });
  });

  test('shared support: two sources, revoke one → kept with the other as provenance; revoke both → gone', async () => {
    const a = await tell('I live in Valencia.');
    const b = await tell('Still, I live in Valencia.');
    assert.deepEqual((await current('user.residence'))[0]!.citations.map((c) => c.role), ['ORIGIN', 'CONFIRM']);
    await forget(a.evidenceId);
    const kept = await current('user.residence');
    assert.deepEqual(kept.map((m) => m.value), ['Valencia']);
    assert.deepEqual(kept[0]!.citations.map((c) => c.evidenceId), [b.evidenceId]);
    await forget(b.evidenceId);
    assert.deepEqual(await current('user.residence'), []);
  });

  test('undo supersession: revoking the source that superseded F1 makes F1 current again; compatible facts are untouched', async () => {
    const f1 = await tell('I live in Tallinn.');
    const other = await tell('I prefer serif fonts.');
    const f2 = await tell('I moved to Riga.');
    assert.deepEqual((await current('user.residence')).map((m) => m.value), ['Riga']);
    const serif = await current('preference.typography');
    await forget(f2.evidenceId);
    const back = await current('user.residence');
    assert.deepEqual(back.map((m) => m.value), ['Tallinn']);
    assert.equal(back[0]!.citations[0]!.evidenceId, f1.evidenceId);
    assert.equal(back[0]!.validTo, null);
    const after = await current('preference.typography');
    assert.equal(after[0]!.versionId, serif[0]!.versionId, 'no collateral invalidation');
    assert.equal(after[0]!.citations[0]!.evidenceId, other.evidenceId);
    assert.deepEqual(await scan('Riga', [f2.messageId]), []);
  });

  test("the agent's own earlier replies that used a forgotten memory are withheld from later contexts", async () => {
    const fact = await tell('Our brand tone is whimsical.');
    const worker = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'Tagline', goal: 'write a tagline', status: 'RUNNING', createdById: t.a.ownerId } });
    const input = await buildWorkerInput(t.app.deps.prisma, worker.id, undefined, { capabilities: null }, t.app.deps.memory.context);
    assert.match(String(input.messages[1]!.content), /whimsical/);
    // The step the model produced from that context (as the engine commits it).
    const turn = await t.app.deps.prisma.turn.create({ data: { taskId: worker.id, workspaceId: t.a.workspaceId, number: 1, status: 'COMPLETED' } });
    await t.app.deps.prisma.step.create({
      data: { turnId: turn.id, taskId: worker.id, index: 0, decision: { content: 'A whimsical tagline: hello!', toolCalls: [] }, requestDigest: 'x', request: { messages: String(input.messages[1]!.content) }, model: 'scripted', generation: 1 },
    });
    const out = await forget(fact.evidenceId);
    assert.equal(out.redactedSteps, 1);
    const later = await buildWorkerInput(t.app.deps.prisma, worker.id, undefined, { capabilities: null }, t.app.deps.memory.context);
    assert.doesNotMatch(JSON.stringify(later.messages.map((m) => m.content)), /whimsical/);
    assert.match(JSON.stringify(later.messages.map((m) => m.content)), /withheld/);
  });

  test('forgetting needs a confirmation card; the approved handler forgets', async () => {
    const fact = await tell('My name is Quintessa.');
    const approval = await requestForgetEvidence(t.app.deps, viewer, { evidenceId: fact.evidenceId });
    assert.equal(approval.kind, 'IRREVERSIBLE');
    assert.equal(approval.status, 'PENDING');
    assert.deepEqual(approval.action, { type: 'FORGET_EVIDENCE', evidenceId: fact.evidenceId });
    assert.doesNotMatch(approval.title, /Quintessa/);
    assert.deepEqual((await current('user.name')).map((m) => m.value), ['Quintessa'], 'nothing happens before approval');
    const handler = approvedActionHandlers.FORGET_EVIDENCE!;
    await t.app.deps.prisma.$transaction((tx) =>
      handler(approval.action as Record<string, unknown>, { tx, emit: Object.assign(() => undefined, { advanced: () => undefined }), deps: t.app.deps, approval: { id: approval.id, workspaceId: t.a.workspaceId, taskId: null }, userId: t.a.ownerId }),
    );
    assert.deepEqual(await current('user.name'), []);
    assert.deepEqual(await scan('Quintessa', [fact.messageId]), []);
  });
});
