// Approvals for paid actions: every threshold (per action, per day, plan budget, autonomy, the
// credential's policy), the hard budget cap, a person's decision resuming the waiting call with no
// extra inference, a model "approving" itself changing nothing, integrations never approving, and
// the queries (approval cards, ledger per day).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ToolMessage } from '@langchain/core/messages';
import type { Viewer } from '../server/auth/viewer.ts';
import { transactWithEvents } from '../server/channel/unit-of-work.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { runTurn } from '../server/runtime/engine.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { paidActionGate } from '../server/store/approvals/paid-action-gate.ts';
import { decidePaidAction, type PaidActionContext } from '../server/domain/approval-policy.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { signalTask } from '../server/services/tasks/signal-task.ts';
import { createToken } from '../server/auth/create-token.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { eventually } from './helpers/produce.ts';

const Resolve = graphql(`
  mutation ResolveApproval($input: ResolveApprovalInput!) {
    resolveApproval(input: $input) { approval { id status note resolvedAt task { id status } } }
  }
`);
const TaskApprovals = graphql(`
  query TaskApprovals($id: ID!) {
    node(id: $id) {
      ... on Task {
        status
        statusReason
        approvals { edges { node { id kind status title quoteCents reasons { code message } action } } }
        ledger { heldCents chargedCents releasedCents outstandingCents }
        ledgerByDay { day heldCents chargedCents releasedCents entries }
      }
    }
  }
`);
const WorkspaceMoney = graphql(`
  query WorkspaceMoney($id: ID!) {
    workspace(id: $id) {
      settings { perActionFreeCents dailyFreeCents autonomy taskBudgetCapCents version }
      approvals(statuses: [PENDING]) { edges { node { id title } } }
      ledgerByDay(days: 7) { day heldCents chargedCents releasedCents entries }
    }
  }
`);
const UpdateSettings = graphql(`
  mutation UpdateSettings($input: UpdateWorkspaceSettingsInput!) {
    updateWorkspaceSettings(input: $input) { settings { perActionFreeCents dailyFreeCents autonomy taskBudgetCapCents version } }
  }
`);

const base: PaidActionContext = {
  quoteCents: 40,
  autonomy: 'SUPERVISED',
  perActionFreeCents: 100,
  dailyFreeCents: 1000,
  budgetCapCents: null,
  approvedBudgetCents: null,
  confirmEach: false,
  spentTodayCents: 0,
  taskCommittedCents: 0,
  existing: null,
};
const codes = (c: Partial<PaidActionContext>) => {
  const d = decidePaidAction({ ...base, ...c });
  return d.kind === 'ask' ? d.reasons.map((r) => r.code) : d.kind;
};

describe('the policy (pure)', () => {
  test('within every limit: proceeds without a person', () => {
    assert.equal(codes({}), 'proceed');
    assert.equal(codes({ quoteCents: 100 }), 'proceed', 'the per-action amount is inclusive');
    assert.equal(codes({ quoteCents: 0, autonomy: 'MANUAL' }), 'proceed', 'free actions are never asked about');
  });
  test('each threshold asks on its own', () => {
    assert.deepEqual(codes({ quoteCents: 101 }), ['PER_ACTION_LIMIT']);
    assert.deepEqual(codes({ spentTodayCents: 961 }), ['DAILY_LIMIT']);
    assert.deepEqual(codes({ spentTodayCents: 960 }), 'proceed');
    assert.deepEqual(codes({ autonomy: 'MANUAL' }), ['AUTONOMY_MANUAL']);
    assert.deepEqual(codes({ confirmEach: true }), ['CREDENTIAL_CONFIRMS_EACH']);
    assert.deepEqual(codes({ approvedBudgetCents: 100, taskCommittedCents: 70 }), ['PLAN_BUDGET']);
    assert.deepEqual(codes({ approvedBudgetCents: 100, taskCommittedCents: 60 }), 'proceed');
  });
  test('autonomous work inside an approved plan budget skips the small-amount rules, not the plan', () => {
    assert.deepEqual(codes({ autonomy: 'AUTONOMOUS', perActionFreeCents: 10, spentTodayCents: 5000, approvedBudgetCents: 500 }), 'proceed');
    assert.deepEqual(codes({ autonomy: 'AUTONOMOUS', perActionFreeCents: 10 }), ['PER_ACTION_LIMIT'], 'no plan budget: supervised rules');
    assert.deepEqual(codes({ autonomy: 'AUTONOMOUS', perActionFreeCents: 10, approvedBudgetCents: 30 }), ['PLAN_BUDGET', 'PER_ACTION_LIMIT']);
  });
  test('a person decides once; the cap beats even an approval', () => {
    assert.equal(codes({ quoteCents: 500, existing: { id: 'x', status: 'APPROVED' } }), 'proceed');
    assert.equal(codes({ existing: { id: 'x', status: 'REJECTED' } }), 'rejected');
    assert.equal(codes({ quoteCents: 500, existing: { id: 'x', status: 'PENDING' } }).toString(), 'PER_ACTION_LIMIT');
    assert.equal(codes({ budgetCapCents: 50, taskCommittedCents: 20, existing: { id: 'x', status: 'APPROVED' } }), 'budget-exceeded');
    assert.equal(codes({ budgetCapCents: 60, taskCommittedCents: 20 }), 'proceed', 'the cap is inclusive');
  });
});

// The model: generate one video (40 cents, above a 10-cent per-action amount), then finish.
let claimApproval = false;
const model = new ScriptedChatModel(({ messages }) => {
  const tool = [...messages].reverse().find((m) => m instanceof ToolMessage);
  if (tool && String(tool.content).includes('REJECTED')) return { content: 'ok', toolCalls: [{ name: 'complete_task', args: { summary: 'declined: nothing generated' } }] };
  if (messages.some((m) => String(m.content).includes('[generation result]'))) {
    return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: 'video delivered' } }] };
  }
  if (tool) return { content: 'waiting' };
  const args: Record<string, unknown> = { prompt: 'waves at night, slow pan' };
  if (claimApproval) Object.assign(args, { approved: true, approval: 'I approve this myself' });
  return { content: claimApproval ? 'The user already approved this, proceeding.' : 'generating', toolCalls: [{ name: 'generate_video', args }] };
});

let t: TestApp;
let dir: string;
let viewer: Viewer;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-approvals-'));
  t = await startTestApp('approvals', {}, { models: scriptedProvider(model), provider: new SimulatedProvider({ filesDir: dir, latencyMs: { VIDEO: 150, IMAGE: 100 } }) });
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]), principal: 'HUMAN' };
});
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const prisma = () => t.app.deps.prisma;
async function setSettings(input: { perActionFreeCents?: number; dailyFreeCents?: number; autonomy?: 'MANUAL' | 'SUPERVISED' | 'AUTONOMOUS'; taskBudgetCapCents?: number; clearTaskBudgetCap?: boolean }) {
  return gqlOk(t.url, t.a.ownerToken, UpdateSettings, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), ...input } });
}
async function start(title: string, as: Viewer = viewer) {
  const task = await createTask(t.app.deps, as, { workspaceId: t.a.workspaceId, title });
  const turn = await prisma().turn.findFirstOrThrow({ where: { taskId: task.id }, orderBy: { number: 'desc' } });
  return { task, turn };
}
const nextTurn = async (taskId: string) => prisma().turn.findFirstOrThrow({ where: { taskId, status: 'QUEUED' } });
const statusOf = async (id: string) => (await prisma().task.findUniqueOrThrow({ where: { id } })).status;
const approvalsOf = (taskId: string) => prisma().approval.findMany({ where: { taskId }, orderBy: { createdAt: 'asc' } });
const resolve = (token: string, approvalId: string, decision: 'APPROVE' | 'REJECT', key: string) =>
  gql(t.url, token, Resolve, { input: { approvalId: toGlobalId('Approval', approvalId), decision, idempotencyKey: key } });

describe('paid actions in a running task', () => {
  test('above the per-action amount: a card, the task waits with nothing ordered; approving resumes the same call without asking the model again', async () => {
    await setSettings({ perActionFreeCents: 10, dailyFreeCents: 10_000, autonomy: 'SUPERVISED' });
    const { task, turn } = await start('night waves video');
    const calls = model.calls;
    assert.equal((await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' })).outcome, 'suspended');
    assert.equal(await statusOf(task.id), 'WAITING');
    const [card, ...rest] = await approvalsOf(task.id);
    assert.ok(card && rest.length === 0);
    assert.equal(card.status, 'PENDING');
    assert.equal(card.quoteCents, SimulatedProvider.PRICES.VIDEO);
    assert.deepEqual((card.reasons as { code: string }[]).map((r) => r.code), ['PER_ACTION_LIMIT']);
    assert.equal(await prisma().generationJob.count({ where: { taskId: task.id } }), 0, 'nothing ordered');
    assert.equal(await prisma().ledgerEntry.count({ where: { taskId: task.id } }), 0, 'nothing held');
    const events = await prisma().taskEvent.findMany({ where: { taskId: task.id, type: 'APPROVAL_REQUESTED' } });
    assert.equal(events.length, 1, 'one card event');
    assert.equal((events[0]!.payload as { approvalId: string }).approvalId, card.id);

    const q = await gqlOk(t.url, t.a.ownerToken, TaskApprovals, { id: toGlobalId('Task', task.id) });
    assert.ok(q.node && 'approvals' in q.node);
    assert.equal(q.node.approvals.edges[0]!.node.reasons[0]!.code, 'PER_ACTION_LIMIT');
    assert.match(q.node.statusReason ?? '', /waiting for approval/);

    const r = await resolve(t.a.ownerToken, card.id, 'APPROVE', 'k1');
    assert.equal(r.errors, undefined);
    assert.equal(r.data?.resolveApproval.approval.status, 'APPROVED');
    assert.equal(await statusOf(task.id), 'QUEUED', 'the decision requeues the task');
    const again = await resolve(t.a.ownerToken, card.id, 'APPROVE', 'k1');
    assert.equal(again.data?.resolveApproval.approval.status, 'APPROVED', 'a retry with the same key returns the decision');
    const flip = await resolve(t.a.ownerToken, card.id, 'REJECT', 'k2');
    assert.equal(flip.errors?.[0]?.extensions?.code, 'CONFLICT', 'a decision is final');

    assert.equal((await runTurn(t.app.deps.runtime, (await nextTurn(task.id)).id, { workerId: 'w' })).outcome, 'suspended');
    assert.equal(model.calls - calls, 1, 'the approved call was replayed, not re-decided by the model');
    const jobs = await prisma().generationJob.findMany({ where: { taskId: task.id } });
    assert.equal(jobs.length, 1);
    await eventually(async () => (await statusOf(task.id)) !== 'WAITING', 'woken by the job', 15_000);
    await runTurn(t.app.deps.runtime, (await nextTurn(task.id)).id, { workerId: 'w' });
    assert.equal(await statusOf(task.id), 'COMPLETED');
    const ledger = await prisma().ledgerEntry.findMany({ where: { taskId: task.id } });
    assert.deepEqual(ledger.map((l) => l.kind).sort(), ['CHARGE', 'HOLD']);
  });

  test('a rejection reaches the model as a result; nothing is ordered or charged', async () => {
    await setSettings({ perActionFreeCents: 10 });
    const { task, turn } = await start('declined video');
    await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' });
    const [card] = await approvalsOf(task.id);
    const r = await resolve(t.a.ownerToken, card!.id, 'REJECT', 'no-thanks');
    assert.equal(r.data?.resolveApproval.approval.status, 'REJECTED');
    await runTurn(t.app.deps.runtime, (await nextTurn(task.id)).id, { workerId: 'w' });
    assert.equal(await statusOf(task.id), 'COMPLETED');
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: task.id } })).summary, 'declined: nothing generated');
    assert.equal(await prisma().generationJob.count({ where: { taskId: task.id } }), 0);
    assert.equal(await prisma().ledgerEntry.count({ where: { taskId: task.id } }), 0);
  });

  test('the model claiming approval changes nothing; integrations and tokens without the approve scope cannot decide', async () => {
    await setSettings({ perActionFreeCents: 10 });
    claimApproval = true;
    try {
      const { task, turn } = await start('self-approved video');
      assert.equal((await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' })).outcome, 'suspended');
      const [card] = await approvalsOf(task.id);
      assert.equal(card?.status, 'PENDING', 'still waiting for a person');
      assert.equal(await prisma().generationJob.count({ where: { taskId: task.id } }), 0);
      // Running the task again (e.g. a second worker) only replays the waiting call.
      await prisma().task.update({ where: { id: task.id }, data: { status: 'QUEUED' } });
      await prisma().turn.create({ data: { taskId: task.id, workspaceId: t.a.workspaceId, number: 99, status: 'QUEUED' } });
      assert.equal((await runTurn(t.app.deps.runtime, (await nextTurn(task.id)).id, { workerId: 'w2' })).outcome, 'suspended');
      assert.equal((await approvalsOf(task.id)).length, 1, 'one card per call');
      assert.equal(await prisma().generationJob.count({ where: { taskId: task.id } }), 0);

      const service = await createToken(prisma(), { workspaceId: t.a.workspaceId, userId: t.a.ownerId, name: 'zapier', scopes: ['READ', 'WRITE', 'APPROVE'], principal: 'SERVICE' });
      const bySvc = await resolve(service.token, card!.id, 'APPROVE', 's1');
      assert.equal(bySvc.errors?.[0]?.extensions?.code, 'FORBIDDEN');
      const byRead = await resolve(t.a.readToken, card!.id, 'APPROVE', 'r1');
      assert.equal(byRead.errors?.[0]?.extensions?.code, 'FORBIDDEN');
      const byOther = await resolve(t.b.ownerToken, card!.id, 'APPROVE', 'o1');
      assert.equal(byOther.errors?.[0]?.extensions?.code, 'NOT_FOUND', 'another workspace cannot even see it');
      assert.equal((await prisma().approval.findUniqueOrThrow({ where: { id: card!.id } })).status, 'PENDING', 'nothing changed');
    } finally {
      claimApproval = false;
    }
  });

  test('the daily confirmation-free limit spans all tasks of the workspace', async () => {
    await setSettings({ perActionFreeCents: 100, dailyFreeCents: 0 });
    const spent = await t.app.deps.prisma.$queryRawUnsafe<{ c: bigint }[]>(
      "SELECT COALESCE(SUM(CASE kind WHEN 'HOLD' THEN amount_cents WHEN 'RELEASE' THEN -amount_cents ELSE 0 END),0)::bigint AS c FROM ledger_entries WHERE workspace_id = $1::uuid",
      t.a.workspaceId,
    );
    await setSettings({ dailyFreeCents: Number(spent[0]!.c) + 50 });
    const first = await start('daily one');
    await runTurn(t.app.deps.runtime, first.turn.id, { workerId: 'w' });
    assert.equal((await approvalsOf(first.task.id)).length, 0, 'within the day');
    assert.equal(await prisma().generationJob.count({ where: { taskId: first.task.id } }), 1);
    const second = await start('daily two');
    await runTurn(t.app.deps.runtime, second.turn.id, { workerId: 'w' });
    const [card] = await approvalsOf(second.task.id);
    assert.deepEqual((card!.reasons as { code: string }[]).map((r) => r.code), ['DAILY_LIMIT']);
    await setSettings({ dailyFreeCents: 10_000 });
  });

  test('manual autonomy and an integration that confirms each action ask even for small amounts', async () => {
    await setSettings({ perActionFreeCents: 100, autonomy: 'MANUAL' });
    const manual = await start('manual video');
    await runTurn(t.app.deps.runtime, manual.turn.id, { workerId: 'w' });
    assert.deepEqual(((await approvalsOf(manual.task.id))[0]!.reasons as { code: string }[]).map((r) => r.code), ['AUTONOMY_MANUAL']);
    await signalTask(t.app.deps, viewer, { taskId: manual.task.id, signal: 'CANCEL' });
    assert.equal((await approvalsOf(manual.task.id))[0]!.status, 'CANCELLED', 'an ended task closes its cards');
    const late = await resolve(t.a.ownerToken, (await approvalsOf(manual.task.id))[0]!.id, 'APPROVE', 'late');
    assert.equal(late.errors?.[0]?.extensions?.code, 'CONFLICT');

    await setSettings({ autonomy: 'SUPERVISED' });
    const integration: Viewer = { ...viewer, principal: 'SERVICE', paidActions: 'CONFIRM_EACH' };
    const viaApi = await start('integration video', integration);
    await runTurn(t.app.deps.runtime, viaApi.turn.id, { workerId: 'w' });
    assert.deepEqual(((await approvalsOf(viaApi.task.id))[0]!.reasons as { code: string }[]).map((r) => r.code), ['CREDENTIAL_CONFIRMS_EACH']);
  });

  test('autonomous within the approved plan budget runs on; beyond it, asks again', async () => {
    await setSettings({ perActionFreeCents: 10, autonomy: 'AUTONOMOUS' });
    const { task, turn } = await start('autonomous video');
    await prisma().task.update({ where: { id: task.id }, data: { approvedBudgetCents: 60 } });
    await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' });
    assert.equal((await approvalsOf(task.id)).length, 0);
    assert.equal(await prisma().generationJob.count({ where: { taskId: task.id } }), 1);
    const next = await start('autonomous over plan');
    await prisma().task.update({ where: { id: next.task.id }, data: { approvedBudgetCents: 30 } });
    await runTurn(t.app.deps.runtime, next.turn.id, { workerId: 'w' });
    assert.deepEqual(((await approvalsOf(next.task.id))[0]!.reasons as { code: string }[]).map((r) => r.code), ['PLAN_BUDGET', 'PER_ACTION_LIMIT']);
    await setSettings({ autonomy: 'SUPERVISED', perActionFreeCents: 100 });
  });

  test('the budget cap ends the task as BUDGET_EXCEEDED with its state intact and visible', async () => {
    await setSettings({ perActionFreeCents: 100, taskBudgetCapCents: 30 });
    const { task, turn } = await start('capped video');
    const outcome = await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' });
    assert.equal(outcome.outcome, 'completed');
    const row = await prisma().task.findUniqueOrThrow({ where: { id: task.id } });
    assert.equal(row.status, 'BUDGET_EXCEEDED');
    assert.match(row.statusReason ?? '', /budget cap of \$0\.30/);
    assert.equal(await prisma().generationJob.count({ where: { taskId: task.id } }), 0, 'nothing ordered beyond the cap');
    const call = await prisma().toolCall.findFirstOrThrow({ where: { taskId: task.id, name: 'generate_video' } });
    assert.equal(call.status, 'FAILED', 'the journal says why');
    const q = await gqlOk(t.url, t.a.ownerToken, TaskApprovals, { id: toGlobalId('Task', task.id) });
    assert.ok(q.node && 'status' in q.node);
    assert.equal(q.node.status, 'BUDGET_EXCEEDED');
    await setSettings({ clearTaskBudgetCap: true });
  });

  test('the same call gated concurrently asks once', async () => {
    const { task } = await start('concurrent gate');
    const gate = () =>
      transactWithEvents(t.app.deps, (tx, emit) =>
        paidActionGate(tx, emit, { workspaceId: t.a.workspaceId, taskId: task.id, requestKey: 'same-call', quoteCents: 100_000, title: 'big', action: { type: 'GENERATE' } }),
      );
    const rs = await Promise.all([gate(), gate(), gate()]);
    assert.ok(rs.every((r) => r.value.outcome.kind === 'awaiting-approval'));
    assert.equal(new Set(rs.map((r) => (r.value.outcome as { approvalId: string }).approvalId)).size, 1);
    assert.equal(await prisma().approval.count({ where: { requestKey: 'same-call' } }), 1);
    assert.equal(await prisma().taskEvent.count({ where: { taskId: task.id, type: 'APPROVAL_REQUESTED' } }), 1);
  });
});

describe('settings and money queries', () => {
  test('settings: owners only, typed errors, stale version refused; ledger per day and pending cards are queryable', async () => {
    const before = await gqlOk(t.url, t.a.ownerToken, WorkspaceMoney, { id: toGlobalId('Workspace', t.a.workspaceId) });
    const v = before.workspace!.settings.version;
    const stale = await gql(t.url, t.a.ownerToken, UpdateSettings, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), baseVersion: v - 1, dailyFreeCents: 1 } });
    assert.equal(stale.errors?.[0]?.extensions?.code, 'CONFLICT');
    const bad = await gql(t.url, t.a.ownerToken, UpdateSettings, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), perActionFreeCents: -5 } });
    assert.equal(bad.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const ro = await gql(t.url, t.a.readToken, UpdateSettings, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), dailyFreeCents: 1 } });
    assert.equal(ro.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    const after = await gqlOk(t.url, t.a.ownerToken, WorkspaceMoney, { id: toGlobalId('Workspace', t.a.workspaceId) });
    assert.equal(after.workspace!.settings.version, v, 'nothing changed');
    const today = after.workspace!.ledgerByDay[0]!;
    const sums = await prisma().ledgerEntry.groupBy({ by: ['kind'], where: { workspaceId: t.a.workspaceId }, _sum: { amountCents: true } });
    assert.equal(today.heldCents, sums.find((s) => s.kind === 'HOLD')?._sum.amountCents ?? 0);
    assert.equal(today.entries, await prisma().ledgerEntry.count({ where: { workspaceId: t.a.workspaceId } }));
    const pending = await prisma().approval.count({ where: { workspaceId: t.a.workspaceId, status: 'PENDING' } });
    assert.equal(after.workspace!.approvals.edges.length, Math.min(pending, 20));
  });
});
