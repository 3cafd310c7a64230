// Caps that pause: with the workspace's atBudgetCap = PAUSE, a task whose next paid action would
// cross its cap waits on a BUDGET_CAP card instead of ending. Nothing is ordered or held while it
// waits; raising the cap (approving the card) replays the very same call, which orders once — the
// model is not asked again. Declining ends the task as BUDGET_EXCEEDED, as END does at once. The
// settings that choose it are validated at the boundary.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ToolMessage } from '@langchain/core/messages';
import type { Viewer } from '../server/auth/viewer.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { runTurn } from '../server/runtime/engine.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { decidePaidAction, proposedCap, type PaidActionContext } from '../server/domain/approval-policy.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { createToken } from '../server/auth/create-token.ts';
import { reasonCodeOf } from '../server/graphql/enums/approval-reason-code.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { waitFor } from './helpers/wait.ts';

const Settings = graphql(`
  mutation CapSettings($input: UpdateWorkspaceSettingsInput!) {
    updateWorkspaceSettings(input: $input) { settings { atBudgetCap taskBudgetCapCents perActionFreeCents timeZone followUpsEnabled quietFromMinute quietToMinute version } }
  }
`);
const Resolve = graphql(`
  mutation CapResolve($input: ResolveApprovalInput!) {
    resolveApproval(input: $input) { approval { id status kind task { id status budgetCapCents } } }
  }
`);
const TaskCards = graphql(`
  query CapTaskCards($id: ID!) {
    node(id: $id) {
      ... on Task {
        status
        budgetCapCents
        approvals { edges { node { id kind status title quoteCents reasons { code message } } } }
      }
    }
  }
`);

// One video (SimulatedProvider.PRICES.VIDEO cents), then finish when its result is in.
const model = new ScriptedChatModel(({ messages }) => {
  const tool = [...messages].reverse().find((m) => m instanceof ToolMessage);
  if (messages.some((m) => String(m.content).includes('[generation result]'))) return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: 'video delivered' } }] };
  if (tool) return { content: 'waiting' };
  return { content: 'generating', toolCalls: [{ name: 'generate_video', args: { prompt: 'waves at night, slow pan' } }] };
});
const PRICE = SimulatedProvider.PRICES.VIDEO;

let t: TestApp;
let dir: string;
let viewer: Viewer;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-cap-pause-'));
  t = await startTestApp('cappause', {}, { models: scriptedProvider(model), provider: new SimulatedProvider({ filesDir: dir, latencyMs: { VIDEO: 100 } }) });
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]), principal: 'HUMAN' };
});
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const prisma = () => t.app.deps.prisma;
const ws = () => toGlobalId('Workspace', t.a.workspaceId);
const settings = (input: Record<string, unknown>) => gql(t.url, t.a.ownerToken, Settings, { input: { workspaceId: ws(), ...input } as never });
async function start(title: string) {
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title });
  const turn = await prisma().turn.findFirstOrThrow({ where: { taskId: task.id }, orderBy: { number: 'desc' } });
  return { task, turn };
}
const queuedTurn = (taskId: string) => prisma().turn.findFirstOrThrow({ where: { taskId, status: 'QUEUED' } });
const statusOf = async (id: string) => (await prisma().task.findUniqueOrThrow({ where: { id } })).status;

describe('the rule (pure)', () => {
  const base: PaidActionContext = { quoteCents: 40, autonomy: 'SUPERVISED', perActionFreeCents: 100, dailyFreeCents: 1000, budgetCapCents: 30, approvedBudgetCents: null, confirmEach: false, spentTodayCents: 0, taskCommittedCents: 0, existing: null };
  test('END ends; PAUSE asks to raise; a declined raise ends; within the cap nothing changes', () => {
    assert.equal(decidePaidAction(base).kind, 'budget-exceeded', 'END is the default');
    const paused = decidePaidAction({ ...base, atCap: 'PAUSE' });
    assert.equal(paused.kind, 'raise-cap');
    assert.ok(paused.kind === 'raise-cap' && paused.neededCents === 40 && paused.proposedCapCents >= 40 && paused.capCents === 30);
    assert.equal(decidePaidAction({ ...base, atCap: 'PAUSE', capRaise: { id: 'c', status: 'PENDING' } }).kind, 'raise-cap');
    assert.equal(decidePaidAction({ ...base, atCap: 'PAUSE', capRaise: { id: 'c', status: 'REJECTED' } }).kind, 'budget-exceeded');
    assert.equal(decidePaidAction({ ...base, atCap: 'PAUSE', budgetCapCents: 40 }).kind, 'proceed', 'the cap is inclusive');
  });
  test('every reason code of the policy reaches the API as itself; an unknown one as OTHER', () => {
    for (const code of ['BUDGET_CAP', 'INPUT_CHANGED', 'PLAN_BUDGET', 'WORKS_CONTAIN_VALUE'] as const) assert.equal(reasonCodeOf(code), code);
    assert.equal(reasonCodeOf('SOMETHING_NEW'), 'OTHER');
  });
  test('the proposed cap covers the action, adds headroom and is whole dollars', () => {
    assert.equal(proposedCap(30, 40), 100);
    assert.equal(proposedCap(1000, 1200), 1500);
    assert.equal(proposedCap(1000, 2550), 2600);
    for (const [cap, need] of [[1, 2], [500, 501], [4000, 9999]] as const) {
      const p = proposedCap(cap, need);
      assert.ok(p >= need && p > cap && p % 100 === 0, `${cap} → ${need}: ${p}`);
    }
  });
});

describe('a task at its cap, in the runtime', () => {
  test('bad settings are refused in words and change nothing', async () => {
    await gqlOk(t.url, t.a.ownerToken, Settings, { input: { workspaceId: ws(), atBudgetCap: 'END' } });
    const before = await prisma().workspaceSettings.findUniqueOrThrow({ where: { workspaceId: t.a.workspaceId } });
    for (const input of [{ timeZone: 'Mars/Olympus' }, { quietFromMinute: 1320 }, { quietFromMinute: 600, quietToMinute: 600 }, { quietFromMinute: 1500, quietToMinute: 60 }]) {
      const r = await settings(input);
      assert.equal(r.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(input));
      assert.doesNotMatch(r.errors![0]!.message, /prisma|sql|at \w+ \(/i);
    }
    const after = await prisma().workspaceSettings.findUniqueOrThrow({ where: { workspaceId: t.a.workspaceId } });
    assert.equal(after.version, before.version, 'nothing changed');
    const ok = await gqlOk(t.url, t.a.ownerToken, Settings, { input: { workspaceId: ws(), timeZone: 'Europe/Berlin', followUpsEnabled: true, quietFromMinute: 1320, quietToMinute: 420 } });
    assert.deepEqual(
      [ok.updateWorkspaceSettings.settings.timeZone, ok.updateWorkspaceSettings.settings.followUpsEnabled, ok.updateWorkspaceSettings.settings.quietFromMinute, ok.updateWorkspaceSettings.settings.quietToMinute],
      ['Europe/Berlin', true, 1320, 420],
    );
    const cleared = await gqlOk(t.url, t.a.ownerToken, Settings, { input: { workspaceId: ws(), clearQuietHours: true } });
    assert.equal(cleared.updateWorkspaceSettings.settings.quietFromMinute, null);
    const viewerTry = await gql(t.url, t.a.readToken, Settings, { input: { workspaceId: ws(), atBudgetCap: 'PAUSE' } });
    assert.equal(viewerTry.errors?.[0]?.extensions?.code, 'FORBIDDEN');
  });

  test('PAUSE: the task waits on a card with nothing ordered; raising the cap orders once, exactly where it stopped', async () => {
    const s = await gqlOk(t.url, t.a.ownerToken, Settings, { input: { workspaceId: ws(), atBudgetCap: 'PAUSE', taskBudgetCapCents: PRICE - 10, perActionFreeCents: 10_000 } });
    assert.equal(s.updateWorkspaceSettings.settings.atBudgetCap, 'PAUSE');
    const { task, turn } = await start('night waves at the cap');
    assert.equal((await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' })).outcome, 'suspended');
    assert.equal(await statusOf(task.id), 'WAITING', 'waiting, not ended');
    assert.equal(await prisma().generationJob.count({ where: { taskId: task.id } }), 0, 'nothing ordered');
    assert.equal(await prisma().ledgerEntry.count({ where: { taskId: task.id } }), 0, 'nothing held');
    const call = await prisma().toolCall.findFirstOrThrow({ where: { taskId: task.id, name: 'generate_video' } });
    assert.notEqual(call.status, 'FAILED', 'the call is not given up');

    const q = await gqlOk(t.url, t.a.ownerToken, TaskCards, { id: toGlobalId('Task', task.id) });
    assert.ok(q.node && 'approvals' in q.node);
    const cards = q.node.approvals.edges.map((e) => e.node);
    assert.equal(cards.length, 1);
    assert.equal(cards[0]!.kind, 'BUDGET_CAP');
    assert.deepEqual(cards[0]!.reasons.map((r) => r.code), ['BUDGET_CAP']);
    assert.match(cards[0]!.title, /reached its budget cap of \$0\.\d\d\. Raise it to \$1\.00/);

    // The runtime resumes nothing on its own while the card waits: a second run finds no turn.
    assert.equal(await prisma().turn.count({ where: { taskId: task.id, status: 'QUEUED' } }), 0);

    const callsBefore = model.calls;
    const r = await gqlOk(t.url, t.a.ownerToken, Resolve, { input: { approvalId: cards[0]!.id, decision: 'APPROVE', idempotencyKey: 'raise-1' } });
    assert.equal(r.resolveApproval.approval.task?.budgetCapCents, 100, 'the cap is what the card said');
    assert.equal(r.resolveApproval.approval.task?.status, 'QUEUED');
    const again = await gqlOk(t.url, t.a.ownerToken, Resolve, { input: { approvalId: cards[0]!.id, decision: 'APPROVE', idempotencyKey: 'raise-1' } });
    assert.equal(again.resolveApproval.approval.status, 'APPROVED', 'a retry of the answer changes nothing');
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: task.id } })).budgetCapCents, 100);

    await runTurn(t.app.deps.runtime, (await queuedTurn(task.id)).id, { workerId: 'w' });
    assert.equal(model.calls, callsBefore, 'the same call went on: the model was not asked again');
    const jobs = await prisma().generationJob.findMany({ where: { taskId: task.id } });
    assert.equal(jobs.length, 1, 'ordered once');
    assert.equal((await prisma().toolCall.findUniqueOrThrow({ where: { id: call.id } })).status, 'DONE');
    const held = await prisma().ledgerEntry.aggregate({ where: { taskId: task.id, kind: 'HOLD' }, _sum: { amountCents: true } });
    assert.equal(held._sum.amountCents, PRICE, 'held once, for the one order');
    const changed = await prisma().taskEvent.findMany({ where: { taskId: task.id, type: 'TASK_LIMITS_CHANGED' } });
    assert.equal(changed.length, 1);
    assert.equal((changed[0]!.payload as { budgetCapCents: number }).budgetCapCents, 100);

    // The video arrives and the task is delivered under the raised cap.
    await waitFor(async () => (await prisma().generationJob.findFirstOrThrow({ where: { taskId: task.id } })).status === 'SUCCEEDED', 'the video');
    const next = await waitFor(() => prisma().turn.findFirst({ where: { taskId: task.id, status: 'QUEUED' } }), 'the task woken by its result');
    await runTurn(t.app.deps.runtime, next.id, { workerId: 'w' });
    assert.equal(await statusOf(task.id), 'COMPLETED');
  });

  test('PAUSE, declined: "Stop the task here" ends it as BUDGET_EXCEEDED with nothing ordered', async () => {
    await gqlOk(t.url, t.a.ownerToken, Settings, { input: { workspaceId: ws(), atBudgetCap: 'PAUSE', taskBudgetCapCents: PRICE - 10 } });
    const { task, turn } = await start('declined raise');
    await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' });
    const card = await prisma().approval.findFirstOrThrow({ where: { taskId: task.id, kind: 'BUDGET_CAP' } });
    await gqlOk(t.url, t.a.ownerToken, Resolve, { input: { approvalId: toGlobalId('Approval', card.id), decision: 'REJECT', idempotencyKey: 'keep-1' } });
    await runTurn(t.app.deps.runtime, (await queuedTurn(task.id)).id, { workerId: 'w' });
    const row = await prisma().task.findUniqueOrThrow({ where: { id: task.id } });
    assert.equal(row.status, 'BUDGET_EXCEEDED');
    assert.equal(row.budgetCapCents, null, 'the cap was not raised');
    assert.equal(await prisma().generationJob.count({ where: { taskId: task.id } }), 0);
    assert.equal(await prisma().approval.count({ where: { taskId: task.id } }), 1, 'asked once');
  });

  test('END (the default) still ends the task at once, with no card', async () => {
    await gqlOk(t.url, t.a.ownerToken, Settings, { input: { workspaceId: ws(), atBudgetCap: 'END', taskBudgetCapCents: PRICE - 10 } });
    const { task, turn } = await start('ends at the cap');
    await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' });
    assert.equal(await statusOf(task.id), 'BUDGET_EXCEEDED');
    assert.equal(await prisma().approval.count({ where: { taskId: task.id } }), 0);
  });

  test('an integration cannot raise the cap: only a person answers the card', async () => {
    await gqlOk(t.url, t.a.ownerToken, Settings, { input: { workspaceId: ws(), atBudgetCap: 'PAUSE', taskBudgetCapCents: PRICE - 10 } });
    const { task, turn } = await start('integration tries');
    await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' });
    const card = await prisma().approval.findFirstOrThrow({ where: { taskId: task.id, kind: 'BUDGET_CAP' } });
    const service = await createToken(prisma(), { workspaceId: t.a.workspaceId, userId: t.a.ownerId, name: 'zapier', scopes: ['READ', 'WRITE', 'APPROVE'], principal: 'SERVICE' });
    const r = await gql(t.url, service.token, Resolve, { input: { approvalId: toGlobalId('Approval', card.id), decision: 'APPROVE', idempotencyKey: 'svc-1' } });
    assert.ok(['FORBIDDEN', 'UNAUTHENTICATED'].includes(String(r.errors?.[0]?.extensions?.code)), JSON.stringify(r.errors));
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: task.id } })).budgetCapCents, null);
    assert.equal((await prisma().approval.findUniqueOrThrow({ where: { id: card.id } })).status, 'PENDING');
  });
});
