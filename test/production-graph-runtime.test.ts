// The production graph in the running product: a person's edit of an input marks exactly the results
// made from it STALE and asks with one impact card before anything is spent (keep or make again, the
// quote approved with it); a replayed edit asks once; a finished task is left as delivered; nobody
// sets STALE by hand. And incremental production: a step whose inputs are unchanged reuses its
// earlier result — no order, no hold, the ledger shows the saving — but never a result a person
// declined, and never when the prompt changed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Viewer } from '../server/auth/viewer.ts';
import { transactWithEvents } from '../server/channel/unit-of-work.ts';
import { ChecklistItemSchema, patchItem, type ChecklistItem } from '../server/domain/checklist.ts';
import { resolveApproval } from '../server/services/approvals/resolve-approval.ts';
import { editChecklist } from '../server/services/checklist/edit-checklist.ts';
import { editDocument } from '../server/services/objects/write-object.ts';
import { readChecklist, writeChecklist } from '../server/store/checklist/write-checklist.ts';
import { ledgerSummary } from '../server/store/ledger-holds.ts';
import { createObjectOp } from '../server/store/objects/operations.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { eventually } from './helpers/produce.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp('graphruntime');
});
after(async () => {
  await t?.close();
});

const prisma = () => t.app.deps.prisma;
const person = (): Viewer => ({ userId: t.a.ownerId, credentialId: 'test', scopes: new Set(['READ', 'WRITE', 'APPROVE']), principal: 'HUMAN', memberships: new Map([[t.a.workspaceId, 'OWNER']]) });
let n = 0;
const key = (p: string) => `${p}-${++n}`;

async function newTask(title: string, status: 'RUNNING' | 'WAITING' | 'COMPLETED' = 'WAITING') {
  return (await prisma().task.create({ data: { workspaceId: t.a.workspaceId, createdById: t.a.ownerId, title, goal: title, status, approvedBudgetCents: 500 } })).id;
}
/** A document the task's agent wrote (its result of a step). */
async function agentDoc(taskId: string, name: string) {
  const { value } = await transactWithEvents(t.app.deps, (tx, emit) =>
    createObjectOp(tx, emit, { workspaceId: t.a.workspaceId, kind: 'DOCUMENT', name, content: { markdown: `# ${name}\nfirst draft\n` }, actor: { kind: 'AGENT', taskId }, idempotencyKey: key('doc') }),
  );
  return value.object.id;
}
async function setPlan(taskId: string, items: Partial<ChecklistItem>[]) {
  await transactWithEvents(t.app.deps, (tx, emit) => writeChecklist(tx, emit, { taskId, actor: { kind: 'AGENT' }, reason: 'plan' }, () => items.map((i) => ChecklistItemSchema.parse(i))));
}
const plan = async (taskId: string) => new Map((await readChecklist(prisma(), taskId))!.items.map((i) => [i.id, i]));

/** A film made as far as two shots: the sheet and the setting, shot 1 (setting) and shot 2 (both) done, shot 3 not started. */
async function film(title: string, status?: 'WAITING' | 'COMPLETED') {
  const id = await newTask(title, status);
  const sheet = await agentDoc(id, 'Character sheet');
  const [setting, s1, s2] = [await agentDoc(id, 'Setting'), await agentDoc(id, 'Shot 1'), await agentDoc(id, 'Shot 2')];
  await setPlan(id, [
    { id: 'character-sheet', title: 'Character sheet', kind: 'DOCUMENT', status: 'DONE', artifacts: [`object:${sheet}`] },
    { id: 'setting', title: 'Setting', kind: 'IMAGE', status: 'DONE', artifacts: [`object:${setting}`], estimateCents: 4 },
    { id: 'shot-1', title: 'Shot 1', kind: 'VIDEO', status: 'DONE', artifacts: [`object:${s1}`], estimateCents: 40, after: ['setting'] },
    { id: 'shot-2', title: 'Shot 2', kind: 'VIDEO', status: 'DONE', artifacts: [`object:${s2}`], estimateCents: 40, after: ['character-sheet', 'setting'] },
    { id: 'shot-3', title: 'Shot 3', kind: 'VIDEO', estimateCents: 40, after: ['character-sheet', 'setting'] },
    { id: 'final-cut', title: 'Final cut', kind: 'OTHER', after: ['shot-1', 'shot-2', 'shot-3'] },
  ]);
  return { id, sheet, s2 };
}
const editSheet = (sheet: string, idempotencyKey = key('edit')) =>
  editDocument(t.app.deps, person(), { objectId: sheet, edits: [{ find: 'first draft', replace: `an old woman in a red raincoat ${idempotencyKey}` }], idempotencyKey });
const pendingCards = (taskId: string) => prisma().approval.findMany({ where: { taskId, status: 'PENDING' } });

describe('a change travels down the graph, and a person decides before anything is spent', () => {
  test('editing the character sheet marks exactly the made shots that use it STALE, with one card that prices the re-make', async () => {
    const { id, sheet } = await film('film: keep');
    const k = key('edit');
    await editSheet(sheet, k);
    const items = await plan(id);
    assert.deepEqual([...items.values()].map((i) => [i.id, i.status]), [
      ['character-sheet', 'DONE'],
      ['setting', 'DONE'],
      ['shot-1', 'DONE'],
      ['shot-2', 'STALE'],
      ['shot-3', 'TODO'],
      ['final-cut', 'TODO'],
    ]);
    assert.match(items.get('shot-2')!.evidence!, /Character sheet/);
    const [card, ...more] = await pendingCards(id);
    assert.equal(more.length, 0, 'one card');
    assert.deepEqual([card!.kind, card!.quoteCents, (card!.action as { itemIds: string[] }).itemIds], ['CHECKPOINT', 40, ['shot-2']]);
    const reasons = (card!.reasons as { message: string }[]).map((r) => r.message).join('\n');
    assert.match(reasons, /Make “Shot 2” again/);
    assert.match(reasons, /will use the new version: Shot 3/);
    assert.match(reasons, /Stays as it is: .*Shot 1/);
    // The same edit replayed (same idempotency key) asks nothing more.
    await editSheet(sheet, k);
    assert.equal((await pendingCards(id)).length, 1);

    // Keep: shot 2 counts again, with its result; nothing re-opens; the budget stays.
    const before = (await prisma().task.findUniqueOrThrow({ where: { id } })).approvedBudgetCents;
    await resolveApproval(t.app.deps, person(), { approvalId: card!.id, decision: 'REJECT', idempotencyKey: key('keep') });
    const kept = (await plan(id)).get('shot-2')!;
    assert.deepEqual([kept.status, kept.round, kept.artifacts.length], ['DONE', 0, 1]);
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id } })).approvedBudgetCents, before);
  });

  test('make again: the stale shot re-opens in a new round, its earlier result named, and the quoted price is approved with it', async () => {
    const { id, sheet, s2 } = await film('film: remake');
    await editSheet(sheet);
    const [card] = await pendingCards(id);
    const approved = await resolveApproval(t.app.deps, person(), { approvalId: card!.id, decision: 'APPROVE', idempotencyKey: key('remake') });
    assert.deepEqual(approved.outcome, { remade: ['shot-2'], kept: [] });
    const items = await plan(id);
    const shot = items.get('shot-2')!;
    assert.deepEqual([shot.status, shot.round, shot.artifacts], ['TODO', 1, []]);
    assert.match(shot.evidence!, new RegExp(s2));
    assert.equal(items.get('shot-1')!.status, 'DONE', 'the other branch is untouched');
    const task = await prisma().task.findUniqueOrThrow({ where: { id } });
    assert.equal(task.approvedBudgetCents, 540, 'the re-make was approved with its price');
    assert.equal(task.status, 'QUEUED', 'the waiting task goes on');
  });

  test('a finished task is left as delivered; STALE cannot be set by hand', async () => {
    const { id, sheet } = await film('film: delivered', 'COMPLETED');
    const version = (await readChecklist(prisma(), id))!.version;
    await editSheet(sheet);
    assert.equal((await readChecklist(prisma(), id))!.version, version);
    assert.equal((await pendingCards(id)).length, 0);
    const live = await film('film: by hand');
    await assert.rejects(
      editChecklist(t.app.deps, person(), { taskId: live.id, baseVersion: (await readChecklist(prisma(), live.id))!.version, items: [{ id: 'shot-1', title: 'Shot 1', status: 'STALE' }] }),
      (e: Error & { code?: string }) => /STALE comes from a change/.test(e.message),
    );
  });
});

describe('incremental production: unchanged inputs reuse the earlier result', () => {
  const generate = () => t.app.deps.runtime.tools.get('generate_image')!;
  const ctx = (taskId: string) =>
    ({ idempotencyKey: key(`gen:${taskId}`), taskId, workspaceId: t.a.workspaceId, turnId: taskId, generation: 1, uow: { prisma: prisma(), notifier: t.app.deps.notifier }, signal: new AbortController().signal }) as never;
  // Re-opened as a change of direction re-opens a step: a new round, its results set aside.
  const reopen = (taskId: string) =>
    transactWithEvents(t.app.deps, (tx, emit) => writeChecklist(tx, emit, { taskId, actor: { kind: 'AGENT' }, reason: 're-open' }, (items) => patchItem(items, 'poster', { status: 'TODO', evidence: 'again' })));

  test('a re-opened step with the same prompt is linked to its earlier result: no order, no hold, the saving in the ledger', async () => {
    const id = await newTask('reuse', 'RUNNING');
    await setPlan(id, [{ id: 'poster', title: 'Poster', kind: 'IMAGE', estimateCents: 4 }]);
    await generate().run({ prompt: 'a lighthouse at dusk', checklistItemId: 'poster' }, ctx(id));
    await eventually(async () => (await plan(id)).get('poster')!.status === 'DONE', 'the first result linked');
    const [job] = await prisma().generationJob.findMany({ where: { taskId: id } });
    await reopen(id);
    const out = (await generate().run({ prompt: 'a lighthouse at dusk', checklistItemId: 'poster' }, ctx(id))) as { status: string; jobId: string };
    assert.deepEqual([out.status, out.jobId], ['SUCCEEDED', job!.id]);
    assert.equal(await prisma().generationJob.count({ where: { taskId: id } }), 1, 'nothing ordered');
    const step = (await plan(id)).get('poster')!;
    assert.deepEqual([step.status, step.round, step.artifacts.length], ['DONE', 1, 1]);
    const money = await ledgerSummary(prisma(), { taskId: id });
    assert.deepEqual([money.heldCents, money.savedCents], [job!.quoteCents, job!.quoteCents], 'held once, saved once');
    assert.equal(await prisma().taskEvent.count({ where: { taskId: id, type: 'RESULT_REUSED' } }), 1);

    // Another prompt is another result.
    await reopen(id);
    await generate().run({ prompt: 'a lighthouse at dawn', checklistItemId: 'poster' }, ctx(id));
    assert.equal(await prisma().generationJob.count({ where: { taskId: id } }), 2);
  });

  test('a result a person declined on a card is never reused', async () => {
    const id = await newTask('declined', 'RUNNING');
    await setPlan(id, [{ id: 'poster', title: 'Poster', kind: 'IMAGE', estimateCents: 4 }]);
    await generate().run({ prompt: 'a fox in the snow', checklistItemId: 'poster' }, ctx(id));
    await eventually(async () => (await plan(id)).get('poster')!.status === 'DONE', 'the first result linked');
    const objectId = (await plan(id)).get('poster')!.artifacts.map((a) => a.replace(/^(object|job):/, ''))[0]!;
    const asset = (await prisma().workspaceObject.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, OR: [{ id: objectId }] } })).id;
    await prisma().approval.create({
      data: { workspaceId: t.a.workspaceId, taskId: id, kind: 'CHECKPOINT', status: 'REJECTED', requestKey: key('pick'), title: 'Pick one', reasons: [], options: [{ id: 'c1', label: 'A', objectId: asset }, { id: 'c2', label: 'B' }], action: { type: 'CHECKPOINT' }, requestedByKind: 'AGENT', resolvedById: t.a.ownerId, resolvedAt: new Date(), resolveKey: key('r') },
    });
    await reopen(id);
    await generate().run({ prompt: 'a fox in the snow', checklistItemId: 'poster' }, ctx(id));
    assert.equal(await prisma().generationJob.count({ where: { taskId: id } }), 2, 'ordered anew');
    assert.equal((await ledgerSummary(prisma(), { taskId: id })).savedCents, 0);
  });
});
