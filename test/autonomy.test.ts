// Autonomous progress: the continuation decision in every branch (pure), and in the running
// product the card the runtime adds when the model only asks in prose, the no-progress stop, the
// auto-wake after a generation with steps left, plan approval and re-approval on scope growth, a
// missing capability caught before money is spent, and the checklist edited by a person.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { BaseMessage } from '@langchain/core/messages';
import type { Viewer } from '../server/auth/viewer.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { ChecklistItemSchema, startStep, linkArtifact, mergePlan, scopeGrew, type ChecklistItem } from '../server/domain/checklist.ts';
import { asksForConfirmation, decideContinuation, type ContinuationInput } from '../server/domain/continuation.ts';
import { runTurn } from '../server/runtime/engine.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel, type ScriptStep } from '../server/runtime/models/scripted-model.ts';
import { readChecklist } from '../server/store/checklist/write-checklist.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, toGlobalId } from './helpers/clients.ts';
import { eventually } from './helpers/produce.ts';

const item = (over: Partial<ChecklistItem> & { id: string }): ChecklistItem => ChecklistItemSchema.parse({ title: over.id, ...over });
const base: ContinuationInput = {
  modelText: '',
  checklist: null,
  pendingJobs: 0,
  pendingApprovals: 0,
  turns: 1,
  maxTurns: 25,
  progressed: true,
  idleTurns: 0,
  maxIdleTurns: 2,
  stepLimitHit: false,
};
const decide = (c: Partial<ContinuationInput>) => decideContinuation({ ...base, ...c });

describe('the continuation decision (pure)', () => {
  const open = [item({ id: 'a', status: 'DONE', artifacts: ['object:1'] }), item({ id: 'b', kind: 'IMAGE' })];
  test('checklist done → complete, with a delivery that cites the results', () => {
    const d = decide({ checklist: [item({ id: 'a', title: 'Poster 1', status: 'DONE', artifacts: ['object:x1'] }), item({ id: 'b', status: 'SKIPPED', evidence: 'not needed' })] });
    assert.equal(d.kind, 'complete');
    assert.match(d.kind === 'complete' ? d.summary : '', /Delivered: \[Poster 1\]\(object:x1\)\nSkipped: b \(not needed\)/);
  });
  test('no plan: the answer is the delivery, a question becomes a card', () => {
    assert.equal(decide({ modelText: 'Here is the slogan: Bean there.' }).kind, 'complete');
    assert.equal(decide({ modelText: 'Shall I go ahead with the render?' }).kind, 'card');
    assert.equal(decide({ modelText: 'x', pendingJobs: 1 }).kind, 'suspend');
  });
  test('waiting → suspend; a prose question → card; progress → next; idle → stop; blocked → stop; limit → fail', () => {
    assert.equal(decide({ checklist: open, pendingJobs: 2 }).kind, 'suspend');
    assert.equal(decide({ checklist: open, pendingApprovals: 1 }).kind, 'suspend');
    assert.equal(decide({ checklist: open, modelText: 'Bitte bestätige, ob ich weitermachen soll.' }).kind, 'card');
    assert.equal(decide({ checklist: open }).kind, 'next');
    assert.equal(decide({ checklist: open, progressed: false, idleTurns: 0 }).kind, 'next', 'one idle turn is tolerated');
    const idle = decide({ checklist: open, progressed: false, idleTurns: 1 });
    assert.deepEqual([idle.kind, idle.kind === 'stop' ? idle.how : null], ['stop', 'pause']);
    assert.match(idle.reason, /no progress in 2 turn\(s\).*stuck at “b”/);
    const blocked = decide({ checklist: [item({ id: 'a', status: 'DONE' }), item({ id: 'b', status: 'BLOCKED', evidence: 'needs the logo file' })] });
    assert.deepEqual([blocked.kind, blocked.reason], ['stop', 'blocked: b (needs the logo file)']);
    const limit = decide({ checklist: open, turns: 25 });
    assert.deepEqual([limit.kind, limit.kind === 'stop' ? limit.how : null], ['stop', 'fail']);
  });
  test('what counts as asking the user', () => {
    for (const yes of ['Please confirm the direction.', 'Should I proceed with the shots?', 'Do you want me to make more?', 'Soll ich die Bilder erzeugen?', '请确认']) assert.ok(asksForConfirmation(yes), yes);
    for (const no of ['Done: three posters.', 'Anything else?', 'I picked candidate 2 as you asked.']) assert.ok(!asksForConfirmation(no), no);
  });
  test('the checklist algebra: plans keep progress, re-opened steps start a new round, an order starts its step', () => {
    const price = (k: string) => (k === 'IMAGE' ? 4 : 0);
    const v1 = mergePlan([], [{ title: 'Candidates', kind: 'IMAGE', count: 3 }, { title: 'Pick', kind: 'CHECKPOINT' }], price, 'plan');
    assert.deepEqual(v1.map((i) => [i.id, i.estimateCents, i.needsApproval]), [['candidates', 12, false], ['pick', 0, true]]);
    let v2 = startStep(v1, 'candidates', 0);
    assert.equal(v2[0]!.status, 'IN_PROGRESS');
    assert.deepEqual(startStep(v1, 'candidates', 1), v1, 'an order of another round starts nothing');
    v2 = v2.map((i) => (i.id === 'candidates' ? { ...i, ordered: 1 } : i)); // as derived from one live job
    v2 = linkArtifact(v2, 'candidates', 'object:a', 'ok');
    assert.deepEqual(linkArtifact(v2, 'candidates', 'object:a', 'ok'), v2, 'a duplicate callback links nothing twice');
    const reopened = mergePlan(v2, [{ id: 'candidates', title: 'Candidates', kind: 'IMAGE', count: 3, reopen: true }, { id: 'pick', title: 'Pick', kind: 'CHECKPOINT' }], price, 'night instead');
    assert.deepEqual([reopened[0]!.status, reopened[0]!.round, reopened[0]!.artifacts, reopened[0]!.ordered], ['TODO', 1, [], 0]);
    assert.match(reopened[0]!.evidence ?? '', /earlier results: object:a/);
    assert.deepEqual(linkArtifact(reopened, 'candidates', 'object:old', 'late', 0), reopened, 'a result of the old round is not linked');
    assert.equal(scopeGrew(null, [item({ id: 'x', kind: 'IMAGE', estimateCents: 4 })], null, 0), null, 'a lone paid result needs no plan approval');
    assert.match(scopeGrew(null, v1, null, 0) ?? '', /first plan/);
    assert.equal(scopeGrew(v1, v1, 12, 0), null);
    assert.match(scopeGrew(v1, [...v1, item({ id: 'more', kind: 'IMAGE', estimateCents: 4 })], 12, 0) ?? '', /grew from 3 to 4 paid results/);
    assert.match(scopeGrew(v1, reopened, 12, 4) ?? '', /spent 4 cents/, 're-doing finished work costs more than approved');
  });
});

// ---- the running product -------------------------------------------------------------------

type Script = (messages: BaseMessage[], n: number) => ScriptStep;
let script: Script = () => ({ content: 'idle' });
let n = 0;
const model = new ScriptedChatModel(({ messages }) => script(messages as BaseMessage[], n++));
const text = (ms: BaseMessage[]) => ms.map((m) => String(m.content)).join('\n');
const toolResults = (ms: BaseMessage[]) => ms.filter((m) => m.getType() === 'tool').map((m) => String(m.content));

const Resolve = graphql(`
  mutation AutonomyResolve($input: ResolveApprovalInput!) {
    resolveApproval(input: $input) { approval { id status } }
  }
`);
const Edit = graphql(`
  mutation AutonomyEdit($input: EditChecklistInput!) {
    editChecklist(input: $input) { task { id checklist { version done total items { id title status round } } } }
  }
`);

const EditGraph = graphql(`
  mutation AutonomyEditGraph($input: EditChecklistInput!) {
    editChecklist(input: $input) { task { id checklist { version items { id title after } } } }
  }
`);

const Impact = graphql(`
  query AutonomyPlanImpact($id: ID!, $changed: [String!]!) {
    node(id: $id) { ... on Task { planImpact(changed: $changed) { stale { step because estimateCents } waiting stillValid costCents } } }
  }
`);
const Derivations = graphql(`
  query AutonomyDerivations($id: ID!) {
    node(id: $id) { ... on WorkspaceObject { id derivedFrom { source { id } sourceVersion objectVersion step task { id } } dependents { object { id } step } } }
  }
`);

let t: TestApp;
let dir: string;
let viewer: Viewer;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-autonomy-'));
  t = await startTestApp('autonomy', {}, { models: scriptedProvider(model), provider: new SimulatedProvider({ filesDir: dir, latencyMs: { IMAGE: 80 } }) });
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]), principal: 'HUMAN' };
});
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  n = 0;
});

const prisma = () => t.app.deps.prisma;
async function start(title: string) {
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title });
  return task.id;
}
async function runQueued(taskId: string) {
  const turn = await prisma().turn.findFirstOrThrow({ where: { taskId, status: 'QUEUED' } });
  return (await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' })).outcome;
}
const task = (id: string) => prisma().task.findUniqueOrThrow({ where: { id } });
const decisions = async (taskId: string) =>
  (await prisma().taskEvent.findMany({ where: { taskId, type: 'CONTINUATION_DECIDED' }, orderBy: { seq: 'asc' } })).map((e) => (e.payload as { decision: string }).decision);
const resolve = (approvalId: string, decision: 'APPROVE' | 'REJECT', extra: { choice?: string } = {}) =>
  gql(t.url, t.a.ownerToken, Resolve, { input: { approvalId: toGlobalId('Approval', approvalId), decision, idempotencyKey: `k-${approvalId}-${decision}`, ...extra } });

describe('in a running task', () => {
  test('the model asks in prose: the runtime adds the card; the answer wakes the task', async () => {
    script = (ms) => {
      if (text(ms).includes('Confirmed')) return { content: 'Going on.', toolCalls: [{ name: 'complete_task', args: { summary: 'brief confirmed and finished' } }] };
      return { content: 'I drafted the brief. Shall I go ahead with the images?' };
    };
    const id = await start('brief for a bakery');
    assert.equal(await runQueued(id), 'suspended');
    const row = await task(id);
    assert.equal(row.status, 'WAITING');
    const card = await prisma().approval.findFirstOrThrow({ where: { taskId: id } });
    assert.deepEqual([card.kind, card.status, (card.action as { source?: string }).source], ['CHECKPOINT', 'PENDING', 'runtime']);
    assert.match(card.title, /Shall I go ahead/);
    assert.deepEqual(await decisions(id), ['card']);
    assert.equal((await resolve(card.id, 'APPROVE')).errors, undefined);
    assert.equal((await task(id)).status, 'QUEUED', 'the answer wakes the task');
    assert.equal(await runQueued(id), 'completed');
    assert.equal((await task(id)).status, 'COMPLETED');
  });

  test('no meaningful progress: the runtime stops after two idle turns and says why; no third idle model call', async () => {
    script = (ms) => {
      if (!text(ms).includes('[checklist v')) return { content: 'Planning.', toolCalls: [{ name: 'plan_checklist', args: { items: [{ title: 'Hero image', kind: 'IMAGE' }] } }] };
      return { content: 'Let me think about the composition a bit more.' };
    };
    const id = await start('hero image');
    assert.equal(await runQueued(id), 'requeued', 'the plan is progress');
    assert.equal(await runQueued(id), 'requeued', 'one idle turn is tolerated');
    assert.equal(await runQueued(id), 'stopped');
    const row = await task(id);
    assert.equal(row.status, 'PAUSED');
    assert.match(row.statusReason ?? '', /no progress in 2 turn\(s\).*stuck at “Hero image”/);
    assert.deepEqual(await decisions(id), ['next', 'next', 'stop']);
    assert.equal(await prisma().turn.count({ where: { taskId: id, status: 'QUEUED' } }), 0, 'nothing scheduled');
    assert.equal(n, 4, 'one planning step + one answer per turn, then nothing');
  });

  test('plan approval, auto-wake after each generation with steps left, delivery citing results; re-approval when the plan grows', async () => {
    let grown = false;
    script = (ms) => {
      const all = text(ms);
      const state = all.slice(all.lastIndexOf('[task state]'));
      if (!state.includes('[checklist v')) {
        return { content: 'plan', toolCalls: [{ name: 'plan_checklist', args: { items: [{ id: 'one', title: 'Image one', kind: 'IMAGE' }, { id: 'two', title: 'Image two', kind: 'IMAGE' }] } }] };
      }
      if (/\[TODO\] Image one/.test(state)) return { content: 'one', toolCalls: [{ name: 'generate_image', args: { prompt: 'lighthouse one', checklistItemId: 'one' } }] };
      if (!grown) {
        grown = true;
        return {
          content: 'the user would like a third',
          toolCalls: [{ name: 'plan_checklist', args: { items: [{ id: 'one', title: 'Image one', kind: 'IMAGE' }, { id: 'two', title: 'Image two', kind: 'IMAGE' }, { id: 'three', title: 'Image three', kind: 'IMAGE' }], reason: 'a third image' } }],
        };
      }
      const next = /\[TODO\] Image two/.test(state) ? 'two' : /\[TODO\] Image three/.test(state) ? 'three' : null;
      if (next) return { content: next, toolCalls: [{ name: `generate_image`, args: { prompt: `lighthouse ${next}`, checklistItemId: next } }] };
      return { content: 'waiting' };
    };
    const id = await start('lighthouse images');
    assert.equal(await runQueued(id), 'suspended', 'the first plan waits for approval');
    const plan = await prisma().approval.findFirstOrThrow({ where: { taskId: id, kind: 'PLAN' } });
    assert.equal(plan.quoteCents, 2 * SimulatedProvider.PRICES.IMAGE);
    assert.equal(await prisma().generationJob.count({ where: { taskId: id } }), 0, 'nothing spent before the plan is approved');
    await resolve(plan.id, 'APPROVE');
    assert.equal((await task(id)).approvedBudgetCents, 8);
    assert.equal(await runQueued(id), 'suspended', 'generating image one');
    // The job completes, is linked to its step, and the task wakes by itself (no user message).
    await eventually(async () => (await task(id)).status === 'QUEUED', 'auto-woken', 10_000);
    const c1 = await readChecklist(prisma(), id);
    assert.deepEqual(c1!.items.find((i) => i.id === 'one')!.status, 'DONE');
    assert.match(c1!.items.find((i) => i.id === 'one')!.artifacts[0]!, /^object:/, 'the step links the asset');
    assert.equal(await runQueued(id), 'suspended', 'the grown plan waits for a new approval');
    const again = await prisma().approval.findFirstOrThrow({ where: { taskId: id, kind: 'PLAN', status: 'PENDING' } });
    assert.match(again.title, /Changed plan/);
    assert.match((again.reasons as { message: string }[])[0]!.message, /grew from 2 to 3 paid results/);
    await resolve(again.id, 'APPROVE');
    for (let i = 0; i < 4 && (await task(id)).status !== 'COMPLETED'; i++) {
      await eventually(async () => ['QUEUED', 'COMPLETED'].includes((await task(id)).status), `woken or done (now ${(await task(id)).status}: ${(await task(id)).statusReason})`, 30_000);
      if ((await task(id)).status === 'QUEUED') await runQueued(id);
    }
    const done = await task(id);
    assert.equal(done.status, 'COMPLETED', 'the last result completes the task without a model call');
    assert.match(done.summary, /\[Image three\]\(object:[0-9a-f-]+\)/);
    assert.deepEqual((await decisions(id)).at(-1), 'complete');
    assert.equal(await prisma().generationJob.count({ where: { taskId: id } }), 3, 'one job per result, none twice');
  });

  test('a result records what it was made from: the results of the steps its step uses, at their versions; the source lists it as a dependent', async () => {
    script = (ms) => {
      const all = text(ms);
      const state = all.slice(all.lastIndexOf('[task state]'));
      if (!state.includes('[checklist v')) {
        return { content: 'plan', toolCalls: [{ name: 'plan_checklist', args: { items: [{ id: 'keeper', title: 'The keeper', kind: 'IMAGE' }, { id: 'shot', title: 'Keeper at dawn', kind: 'IMAGE', after: ['keeper'] }] } }] };
      }
      if (/\[TODO\] The keeper/.test(state)) return { content: 'keeper', toolCalls: [{ name: 'generate_image', args: { prompt: 'the lighthouse keeper', checklistItemId: 'keeper' } }] };
      if (/\[TODO\] Keeper at dawn/.test(state)) return { content: 'shot', toolCalls: [{ name: 'generate_image', args: { prompt: 'the keeper at dawn', checklistItemId: 'shot' } }] };
      return { content: 'waiting' };
    };
    const id = await start('keeper film');
    assert.equal(await runQueued(id), 'suspended');
    await resolve((await prisma().approval.findFirstOrThrow({ where: { taskId: id, kind: 'PLAN' } })).id, 'APPROVE');
    for (let i = 0; i < 4 && (await task(id)).status !== 'COMPLETED'; i++) {
      await eventually(async () => ['QUEUED', 'COMPLETED'].includes((await task(id)).status), 'woken or done', 30_000);
      if ((await task(id)).status === 'QUEUED') await runQueued(id);
    }
    const items = (await readChecklist(prisma(), id))!.items;
    const keeper = items.find((i) => i.id === 'keeper')!.artifacts[0]!.replace(/^object:/, '');
    const shot = items.find((i) => i.id === 'shot')!.artifacts[0]!.replace(/^object:/, '');
    const shotView = await gql(t.url, t.a.ownerToken, Derivations, { id: toGlobalId('WorkspaceObject', shot) });
    const made = (shotView.data!.node as { derivedFrom: { source: { id: string } | null; sourceVersion: number; objectVersion: number; step: string | null; task: { id: string } | null }[] }).derivedFrom;
    assert.deepEqual(made.map((d) => [d.source?.id, d.sourceVersion, d.objectVersion, d.step, d.task?.id]), [[toGlobalId('WorkspaceObject', keeper), 1, 1, 'shot', toGlobalId('Task', id)]]);
    const keeperView = await gql(t.url, t.a.ownerToken, Derivations, { id: toGlobalId('WorkspaceObject', keeper) });
    const node = keeperView.data!.node as { derivedFrom: unknown[]; dependents: { object: { id: string } | null; step: string | null }[] };
    assert.deepEqual(node.derivedFrom, [], 'the first step used nothing');
    assert.deepEqual(node.dependents.map((d) => [d.object?.id, d.step]), [[toGlobalId('WorkspaceObject', shot), 'shot']]);
    // Another workspace sees none of it.
    const other = await gql(t.url, t.b.ownerToken, Derivations, { id: toGlobalId('WorkspaceObject', shot) });
    assert.equal(other.data?.node ?? null, null);
  });

  test('a plan needing a capability the platform lacks is refused before any money is spent; done is not the model’s say-so', async () => {
    script = (ms) => {
      const results = toolResults(ms);
      if (results.length === 0) return { content: 'plan', toolCalls: [{ name: 'plan_checklist', args: { items: [{ title: 'Edit the clips together', kind: 'VIDEO_EDIT' }] } }] };
      if (results.length === 1) return { content: 'plan again', toolCalls: [{ name: 'plan_checklist', args: { items: [{ id: 's', title: 'Sketch', kind: 'IMAGE' }] } }] };
      if (results.length === 2) return { content: 'claim done', toolCalls: [{ name: 'complete_task', args: { summary: 'all done (not really)' } }] };
      return { content: 'skip', toolCalls: [{ name: 'update_checklist', args: { itemId: 's', status: 'DONE', evidence: 'I say so' } }] };
    };
    const id = await start('a montage');
    await runQueued(id);
    const calls = await prisma().toolCall.findMany({ where: { taskId: id }, orderBy: [{ stepIndex: 'asc' }, { callIndex: 'asc' }] });
    assert.equal(calls[0]!.status, 'FAILED');
    assert.match(calls[0]!.error ?? '', /cannot do VIDEO_EDIT/);
    assert.equal(calls[2]!.status, 'FAILED', 'complete_task with open steps is refused');
    assert.match(calls[2]!.error ?? '', /open steps: s \(TODO\)/);
    assert.equal(calls[3]!.status, 'FAILED', 'a generation step is not DONE without its result');
    assert.match(calls[3]!.error ?? '', /needs 1 result/);
    assert.equal(await prisma().ledgerEntry.count({ where: { taskId: id } }), 0);
    assert.notEqual((await task(id)).status, 'COMPLETED');
  });

  test('a person edits the checklist: stale versions are refused; re-opening a step starts a new round', async () => {
    script = () => ({ content: 'plan', toolCalls: [{ name: 'plan_checklist', args: { items: [{ id: 'brief', title: 'Brief', kind: 'DOCUMENT' }] } }] });
    const id = await start('edited plan');
    await runQueued(id).catch(() => {});
    await prisma().task.update({ where: { id }, data: { status: 'PAUSED' } });
    const c = (await readChecklist(prisma(), id))!;
    const stale = await gql(t.url, t.a.ownerToken, Edit, { input: { taskId: toGlobalId('Task', id), baseVersion: c.version - 1, items: [{ title: 'Brief' }] } });
    assert.equal(stale.errors?.[0]?.extensions?.code, 'CONFLICT');
    assert.equal((await readChecklist(prisma(), id))!.version, c.version, 'nothing written');
    const ok = await gql(t.url, t.a.ownerToken, Edit, {
      input: { taskId: toGlobalId('Task', id), baseVersion: c.version, items: [{ id: 'brief', title: 'Brief', status: 'TODO' }, { title: 'Moodboard', kind: 'IMAGE', count: 2 }], reason: 'add a moodboard' },
    });
    assert.equal(ok.errors, undefined);
    const list = ok.data!.editChecklist.task.checklist!;
    assert.equal(list.version, c.version + 1);
    assert.deepEqual(list.items.map((i) => [i.id, i.status]), [['brief', 'TODO'], ['moodboard', 'TODO']]);
    assert.equal((await task(id)).planApprovedVersion, list.version, 'a person with the approve scope who edits the plan approves it');
    // A kind the platform has no capability for is not a kind at all (ChecklistItemKind).
    const bad = await gql(t.url, t.a.ownerToken, Edit, { input: { taskId: toGlobalId('Task', id), baseVersion: list.version, items: [{ title: 'Print it', kind: 'PRINT' as never }] } });
    assert.equal(bad.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.equal((await readChecklist(prisma(), id))!.version, list.version, 'nothing written');
    const ro = await gql(t.url, t.a.readToken, Edit, { input: { taskId: toGlobalId('Task', id), baseVersion: list.version, items: [{ title: 'x' }] } });
    assert.equal(ro.errors?.[0]?.extensions?.code, 'FORBIDDEN');
  });

  test('a plan is a graph: steps name what they use; a plan that goes in a circle is refused, from a person and from the agent, and nothing is written', async () => {
    // The agent plans in a circle: the call fails with the reason it can read, no checklist is written.
    script = (ms) =>
      toolResults(ms).length === 0
        ? { content: 'plan', toolCalls: [{ name: 'plan_checklist', args: { items: [{ id: 'a', title: 'Storyboard', after: ['c'] }, { id: 'b', title: 'Shot', after: ['a'] }, { id: 'c', title: 'Cut', after: ['b'] }] } }] }
        : { content: 'idle' };
    const looping = await start('circular plan');
    await runQueued(looping).catch(() => {});
    const [call] = await prisma().toolCall.findMany({ where: { taskId: looping, name: 'plan_checklist' } });
    assert.equal(call!.status, 'FAILED');
    assert.match(call!.error ?? '', /goes in a circle: "Storyboard" → "Shot" → "Cut" → "Storyboard"/);
    assert.equal(await readChecklist(prisma(), looping), null, 'no checklist written');

    script = () => ({ content: 'plan', toolCalls: [{ name: 'plan_checklist', args: { items: [{ id: 'brief', title: 'Brief', kind: 'DOCUMENT' }] } }] });
    const id = await start('graph plan');
    await runQueued(id).catch(() => {});
    await prisma().task.update({ where: { id }, data: { status: 'PAUSED' } });
    const c = (await readChecklist(prisma(), id))!;
    // By title or id; a step the plan does not name keeps its edges when omitted.
    const made = await gql(t.url, t.a.ownerToken, EditGraph, {
      input: { taskId: toGlobalId('Task', id), baseVersion: c.version, items: [{ id: 'brief', title: 'Brief' }, { title: 'Character', kind: 'IMAGE', after: ['Brief'] }, { title: 'Scene', kind: 'IMAGE', after: ['brief'] }, { title: 'Shot one', kind: 'IMAGE', after: ['Character', 'scene'] }] },
    });
    assert.equal(made.errors, undefined);
    const items = made.data!.editChecklist.task.checklist!.items;
    assert.deepEqual(items.map((i) => [i.id, i.after]), [['brief', []], ['character', ['brief']], ['scene', ['brief']], ['shot-one', ['character', 'scene']]]);

    // The agent orders a shot before its character and scene exist: refused, nothing ordered or held.
    const generate = t.app.deps.runtime.tools.get('generate_image')!;
    const ctx = { idempotencyKey: `graph:${id}:0:0`, taskId: id, workspaceId: t.a.workspaceId, turnId: id, generation: 1, uow: { prisma: prisma(), notifier: t.app.deps.notifier }, signal: new AbortController().signal } as never;
    await assert.rejects(generate.run({ prompt: 'the keeper at dawn', checklistItemId: 'shot-one' }, ctx), /"Shot one" uses "Character" and "Scene", not finished yet.*Nothing was ordered/);
    assert.equal(await prisma().generationJob.count({ where: { taskId: id } }), 0);
    assert.equal(await prisma().ledgerEntry.count({ where: { taskId: id } }), 0);

    // What a new character would do to the plan, before anything is spent: nothing is made yet,
    // so every later step simply waits; a step the plan does not have is BAD_USER_INPUT.
    const impact = await gql(t.url, t.a.ownerToken, Impact, { id: toGlobalId('Task', id), changed: ['character'] });
    assert.equal(impact.errors, undefined);
    const seen = (impact.data!.node as { planImpact: { stale: unknown[]; waiting: string[]; stillValid: string[]; costCents: number } }).planImpact;
    assert.deepEqual([seen.stale, seen.waiting, seen.costCents], [[], ['shot-one'], 0]);
    const unknownStep = await gql(t.url, t.a.ownerToken, Impact, { id: toGlobalId('Task', id), changed: ['nowhere'] });
    assert.equal(unknownStep.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');

    const version = made.data!.editChecklist.task.checklist!.version;
    for (const bad of [
      [{ id: 'brief', title: 'Brief', after: ['shot-one'] }, { id: 'shot-one', title: 'Shot one', after: ['brief'] }],
      [{ id: 'brief', title: 'Brief', after: ['brief'] }],
      [{ id: 'brief', title: 'Brief', after: ['nowhere'] }],
    ]) {
      const r = await gql(t.url, t.a.ownerToken, EditGraph, { input: { taskId: toGlobalId('Task', id), baseVersion: version, items: bad } });
      assert.equal(r.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(bad));
      assert.match(r.errors![0]!.message, /^The plan cannot run: /);
      assert.equal((await readChecklist(prisma(), id))!.version, version, 'nothing written');
    }
  });
});
