// Tasks as addressable runs: the state machine, exactly one terminal state (also under races and
// against direct SQL), idempotent cancel, and one event per transition in the same transaction.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decideTransition, TASK_STATUSES, TERMINAL_STATUSES, type TaskTransition } from '../server/domain/task-status.ts';
import { transitionTask } from '../server/services/tasks/transition-task.ts';
import { createToken } from '../server/auth/create-token.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { CreateTask, SignalTask, TaskEventsPage, WorkspaceTasks } from './helpers/documents.ts';
import { fromGlobalId } from './helpers/ids.ts';
import type { WorkspaceTasksQuery } from './gql/graphql.ts';

const TRANSITIONS: TaskTransition[] = ['start', 'wait', 'requeue', 'pause', 'resume', 'cancel', 'complete', 'fail', 'exceedBudget'];

describe('state machine (pure)', () => {
  test('no transition ever leaves a terminal state', () => {
    for (const s of TERMINAL_STATUSES) {
      for (const tr of TRANSITIONS) {
        const d = decideTransition(s, tr);
        assert.notEqual(d.kind, 'move', `${s} --${tr}--> must not move`);
      }
    }
  });
  test('cancel is idempotent, other terminal transitions are rejected', () => {
    assert.deepEqual(decideTransition('CANCELLED', 'cancel'), { kind: 'noop', status: 'CANCELLED' });
    assert.equal(decideTransition('COMPLETED', 'cancel').kind, 'reject');
    assert.equal(decideTransition('FAILED', 'complete').kind, 'reject');
  });
  test('every live state can be cancelled and failed', () => {
    for (const s of TASK_STATUSES.filter((x) => !TERMINAL_STATUSES.includes(x))) {
      assert.deepEqual(decideTransition(s, 'cancel'), { kind: 'move', from: s, to: 'CANCELLED' });
      assert.deepEqual(decideTransition(s, 'fail'), { kind: 'move', from: s, to: 'FAILED' });
    }
  });
});

let t: TestApp;
before(async () => {
  t = await startTestApp('taskstate');
});
after(async () => {
  await t.close();
});

async function newTask(title = 'task') {
  const d = await gqlOk(t.url, t.a.ownerToken, CreateTask, {
    input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title },
  });
  return { gid: d.createTask.task.id, id: fromGlobalId(d.createTask.task.id).id, created: d.createTask.task };
}

describe('signals through the API', () => {
  test('create → pause → resume → cancel → cancel again: one event per change, none for the repeat', async () => {
    const task = await newTask();
    assert.equal(task.created.status, 'QUEUED');
    assert.equal(task.created.lastEventSeq, 1, 'the create response already counts its TASK_CREATED event');
    const sig = (signal: 'PAUSE' | 'RESUME' | 'CANCEL', reason?: string) =>
      gql(t.url, t.a.ownerToken, SignalTask, { input: { taskId: task.gid, signal, reason } });
    assert.equal((await sig('PAUSE', 'lunch')).data?.signalTask.task.status, 'PAUSED');
    assert.equal((await sig('RESUME')).data?.signalTask.task.status, 'QUEUED');
    const c1 = await sig('CANCEL', 'not needed');
    assert.equal(c1.data?.signalTask.task.status, 'CANCELLED');
    assert.equal(c1.data?.signalTask.task.isTerminal, true);
    assert.ok(c1.data?.signalTask.task.endedAt);
    const c2 = await sig('CANCEL');
    assert.equal(c2.errors, undefined, 'a repeated cancel is not an error');
    assert.equal(c2.data?.signalTask.task.status, 'CANCELLED');
    assert.equal(c2.data?.signalTask.task.lastEventSeq, 4, 'the repeated cancel appended nothing');
    const r = await sig('RESUME');
    assert.equal(r.errors?.[0]?.extensions?.code, 'CONFLICT');
    const page = await gqlOk(t.url, t.a.ownerToken, TaskEventsPage, { id: task.gid });
    assert.deepEqual(
      page.task.events.edges.map((e) => [e.node.seq, e.node.type, (e.node.payload as { to?: string }).to ?? null]),
      [
        [1, 'TASK_CREATED', null],
        [2, 'TASK_STATUS_CHANGED', 'PAUSED'],
        [3, 'TASK_STATUS_CHANGED', 'QUEUED'],
        [4, 'TASK_STATUS_CHANGED', 'CANCELLED'],
      ],
    );
  });

  test('a second terminal transition is rejected and changes nothing', async () => {
    const task = await newTask();
    const deps = t.app.deps;
    await transitionTask(deps, { taskId: task.id, transition: 'start', actor: { kind: 'SYSTEM' } });
    await transitionTask(deps, { taskId: task.id, transition: 'complete', actor: { kind: 'AGENT' } });
    await assert.rejects(
      transitionTask(deps, { taskId: task.id, transition: 'fail', actor: { kind: 'SYSTEM' } }),
      (e: { code?: string }) => e.code === 'CONFLICT',
    );
    const cancel = await gql(t.url, t.a.ownerToken, SignalTask, { input: { taskId: task.gid, signal: 'CANCEL' } });
    assert.equal(cancel.errors?.[0]?.extensions?.code, 'CONFLICT');
    const row = await deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } });
    assert.equal(row.status, 'COMPLETED');
    assert.equal(row.lastEventSeq, 3);
  });

  test('racing terminal transitions: exactly one wins, exactly one terminal event', async () => {
    const task = await newTask('race');
    const deps = t.app.deps;
    const racers: TaskTransition[] = ['cancel', 'complete', 'fail', 'exceedBudget', 'cancel', 'complete', 'fail', 'cancel'];
    const results = await Promise.allSettled(
      racers.map((tr) => transitionTask(deps, { taskId: task.id, transition: tr, actor: { kind: 'SYSTEM' } })),
    );
    const events = await deps.prisma.taskEvent.findMany({ where: { taskId: task.id, type: 'TASK_STATUS_CHANGED' } });
    assert.equal(events.length, 1, 'one terminal event');
    const row = await deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } });
    assert.equal((events[0]!.payload as { to: string }).to, row.status);
    for (const r of results) {
      if (r.status === 'rejected') assert.equal((r.reason as { code?: string }).code, 'CONFLICT');
    }
  });

  test('the database itself refuses to move a terminal task (trigger), whatever code writes', async () => {
    const task = await newTask();
    await transitionTask(t.app.deps, { taskId: task.id, transition: 'cancel', actor: { kind: 'USER' } });
    await assert.rejects(
      t.app.deps.prisma.$executeRawUnsafe(`UPDATE tasks SET status = 'QUEUED' WHERE id = $1::uuid`, task.id),
      /terminal/,
    );
    await assert.rejects(
      t.app.deps.prisma.$executeRawUnsafe(`UPDATE task_events SET type = 'X' WHERE task_id = $1::uuid`, task.id),
      /append-only/,
    );
  });

  test('createTask with an idempotency key creates one task, also under concurrent retries', async () => {
    const input = { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'once', idempotencyKey: 'key-1' };
    const rs = await Promise.all(Array.from({ length: 6 }, () => gqlOk(t.url, t.a.ownerToken, CreateTask, { input })));
    const ids = new Set(rs.map((r) => r.createTask.task.id));
    assert.equal(ids.size, 1);
    const id = fromGlobalId([...ids][0]!).id;
    assert.equal(await t.app.deps.prisma.taskEvent.count({ where: { taskId: id } }), 1, 'one TASK_CREATED');
  });
});

describe('task list', () => {
  test('workspace.tasks pages newest first with opaque cursors, without repeats or gaps', async () => {
    const other = await t.app.deps.prisma.workspace.create({ data: { name: 'Paging', slug: 'paging' } });
    await t.app.deps.prisma.membership.create({ data: { workspaceId: other.id, userId: t.a.ownerId, role: 'OWNER' } });
    // Same-millisecond timestamps are ordered by id, so give two tasks an identical createdAt.
    const at = new Date('2026-01-01T00:00:00.000Z');
    const made = [];
    for (let i = 0; i < 7; i++) {
      made.push(
        await t.app.deps.prisma.task.create({
          data: { workspaceId: other.id, title: `p${i}`, createdAt: i < 2 ? at : new Date(at.getTime() + i * 1000) },
        }),
      );
    }
    const tok = await createToken(t.app.deps.prisma, { workspaceId: other.id, userId: t.a.ownerId, name: 'p', scopes: ['READ'] });
    const seen: string[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 10; guard++) {
      const res: WorkspaceTasksQuery = await gqlOk(t.url, tok.token, WorkspaceTasks, {
        id: toGlobalId('Workspace', other.id),
        first: 3,
        after,
      });
      const page = res.workspace.tasks;
      seen.push(...page.edges.map((e) => e.node.title));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor ?? null;
    }
    const expected = [...made]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id))
      .map((x) => x.title);
    assert.deepEqual(seen, expected);
  });
});
