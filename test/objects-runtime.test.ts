// The agent in the shared workspace, driven by a scripted model through the real runtime: the
// stale-write sequence (agent reads v3, a person saves v4, the agent's v3-based write is refused with
// CONFLICT, the agent re-reads v4 and succeeds), change notices reaching exactly one step's
// context, edits never waking a task, and idempotent tool writes.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { Viewer } from '../server/auth/viewer.ts';
import { runTurn } from '../server/runtime/engine.ts';
import { replayTask } from '../server/runtime/replay.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { readObjectOp } from '../server/store/objects/operations.ts';
import { createObject, updateObject } from '../server/services/objects/write-object.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

type Res = { ok: boolean; version?: number; error?: { code: string; currentVersion?: number } };
const lastToolResult = (messages: BaseMessage[]): Res | null => {
  const m = [...messages].reverse().find((x) => x instanceof ToolMessage);
  if (!m) return null;
  return (JSON.parse(String(m.content)) as { result: Res }).result;
};
const noticeTexts = (messages: BaseMessage[]) =>
  messages.filter((m) => m instanceof HumanMessage && String(m.content).startsWith('[workspace change]')).map((m) => String(m.content));

let docId = '';
/** Runs between the agent's read and its write: the person saves v4. */
let userSaves: () => Promise<void> = async () => {};
const model = new ScriptedChatModel(async ({ call, messages }) => {
  const tools = messages.filter((m) => m instanceof ToolMessage).length;
  const last = lastToolResult(messages);
  switch (tools) {
    case 0:
      return { content: 'reading the storyboard', toolCalls: [{ name: 'read_object', args: { objectId: docId } }] };
    case 1: {
      await userSaves(); // the person saves v4 while the agent is deciding
      return {
        content: 'rewriting shot 3',
        toolCalls: [{ name: 'write_object', args: { objectId: docId, baseVersion: last!.version!, content: { markdown: '# Shot 1\nbeach\n# Shot 2\ndunes\n# Shot 3\nagent: sunset\n' } } }],
      };
    }
    case 2:
      assert.equal(last!.ok, false);
      return { content: 'conflict: re-reading', toolCalls: [{ name: 'read_object', args: { objectId: docId } }] };
    case 3:
      return {
        content: 'applying my change to v4',
        toolCalls: [{ name: 'edit_document', args: { objectId: docId, baseVersion: last!.version!, edits: [{ find: '# Shot 3\nnight', replace: '# Shot 3\nagent: sunset' }] } }],
      };
    default:
      return { content: `done after call ${call}`, toolCalls: [{ name: 'complete_task', args: { summary: 'shot 3 updated on top of v4' } }] };
  }
});

let t: TestApp;
let viewer: Viewer;
before(async () => {
  t = await startTestApp('objrt', {}, { models: scriptedProvider(model) });
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
});
after(async () => t.close());

test("a stale write: agent reads v3, person saves v4, the v3-based write is refused, the agent re-reads v4 and succeeds; the notice reaches one step once", async () => {
  const c = await createObject(t.app.deps, viewer, { workspaceId: t.a.workspaceId, kind: 'DOCUMENT', name: 'Storyboard', content: { markdown: '# Shot 1\nbeach\n' } });
  docId = c.object.id;
  await updateObject(t.app.deps, viewer, { objectId: docId, baseVersion: 1, content: { markdown: '# Shot 1\nbeach\n# Shot 2\ndunes\n' } });
  await updateObject(t.app.deps, viewer, { objectId: docId, baseVersion: 2, content: { markdown: '# Shot 1\nbeach\n# Shot 2\ndunes\n# Shot 3\nday\n' } });
  userSaves = async () => {
    userSaves = async () => {};
    await updateObject(t.app.deps, viewer, { objectId: docId, baseVersion: 3, content: { markdown: '# Shot 1\nbeach\n# Shot 2\ndunes at noon\n# Shot 3\nnight\n' } });
  };
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: 'refine the storyboard' });
  const turn = await t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
  const before = model.calls;
  assert.equal((await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' })).outcome, 'completed');

  const calls = await t.app.deps.prisma.toolCall.findMany({ where: { taskId: task.id }, orderBy: [{ stepIndex: 'asc' }, { callIndex: 'asc' }] });
  assert.deepEqual(calls.map((x) => x.name), ['read_object', 'write_object', 'read_object', 'edit_document', 'complete_task']);
  assert.equal((calls[0]!.result as Res).version, 3, 'the agent read v3');
  const refused = calls[1]!.result as Res;
  assert.equal(refused.ok, false);
  assert.equal(refused.error?.code, 'CONFLICT');
  assert.equal(refused.error?.currentVersion, 4, 'the conflict carries the current version');
  assert.equal((calls[2]!.result as Res).version, 4, 'the agent re-read v4');
  assert.equal((calls[3]!.result as Res).version, 5);

  const versions = await t.app.deps.prisma.objectVersion.findMany({ where: { objectId: docId }, orderBy: { version: 'asc' } });
  assert.deepEqual(versions.map((v) => [v.version, v.authorKind]), [[1, 'USER'], [2, 'USER'], [3, 'USER'], [4, 'USER'], [5, 'AGENT']]);
  assert.equal(versions[4]!.authorTaskId, task.id);
  assert.equal((versions[4]!.content as { markdown: string }).markdown, '# Shot 1\nbeach\n# Shot 2\ndunes at noon\n# Shot 3\nagent: sunset\n', "the person's v4 change survived");
  assert.equal(versions[4]!.idempotencyKey, calls[3]!.id, 'the version carries the tool call key');

  // The person's v4 left one notice; it was consumed by exactly one step (the one after the edit).
  const notices = await t.app.deps.prisma.changeNotice.findMany({ where: { taskId: task.id } });
  assert.equal(notices.length, 1);
  assert.deepEqual([notices[0]!.fromVersion, notices[0]!.toVersion, notices[0]!.authorKind], [3, 4, 'USER']);
  assert.match(notices[0]!.summary, /Shot 2/);
  assert.equal(notices[0]!.consumedTurnId, turn.id);
  assert.equal(notices[0]!.consumedStep, 2, 'read by the step decided after the edit');
  const requests = model.received.slice(before);
  const withNotice = requests.map((m) => noticeTexts(m).length);
  assert.deepEqual(withNotice, [0, 0, 1, 1, 1], 'absent before the edit, then present once in every later request (never twice)');
  assert.match(noticeTexts(requests[2]!)[0]!, /updated from v3 to v4 by a person .*Shot 2/);
  // The step that consumed it got it as the newest input (fresh; only the task-state tail follows),
  // the later ones in history.
  assert.ok(String(requests[2]!.at(-1)!.content).startsWith('[task state]'));
  assert.ok(String(requests[2]!.at(-2)!.content).startsWith('[workspace change]'));
  // Events: the task's own edit is in its stream.
  const types = (await t.app.deps.prisma.taskEvent.findMany({ where: { taskId: task.id }, orderBy: { seq: 'asc' } })).map((e) => e.type);
  assert.ok(types.includes('OBJECT_UPDATED'), types.join(','));
  // The recorded run replays deterministically (notices included).
  assert.equal((await replayTask(t.app.deps.prisma, task.id)).divergence, null);
});

test('an edit never wakes a task: it leaves a notice for the next step instead', async () => {
  const c = await createObject(t.app.deps, viewer, { workspaceId: t.a.workspaceId, kind: 'DOCUMENT', name: 'Brief', content: { markdown: '# Goal\nposter\n' } });
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: 'waiting task' });
  await readObjectOp(t.app.deps.prisma, { workspaceId: t.a.workspaceId, objectId: c.object.id, taskId: task.id });
  await t.app.deps.prisma.task.update({ where: { id: task.id }, data: { status: 'WAITING' } });
  await t.app.deps.prisma.turn.updateMany({ where: { taskId: task.id }, data: { status: 'COMPLETED' } });
  const turnsBefore = await t.app.deps.prisma.turn.count({ where: { taskId: task.id } });
  await updateObject(t.app.deps, viewer, { objectId: c.object.id, baseVersion: 1, content: { markdown: '# Goal\nposter and flyer\n' } });
  await updateObject(t.app.deps, viewer, { objectId: c.object.id, baseVersion: 2, content: { markdown: '# Goal\nposter and flyer, blue\n' } });
  const row = await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } });
  assert.equal(row.status, 'WAITING', 'not woken');
  assert.equal(await t.app.deps.prisma.turn.count({ where: { taskId: task.id } }), turnsBefore, 'no turn scheduled');
  const notices = await t.app.deps.prisma.changeNotice.findMany({ where: { taskId: task.id }, orderBy: { toVersion: 'asc' } });
  assert.deepEqual(notices.map((n) => [n.fromVersion, n.toVersion, n.consumedAt]), [[1, 2, null], [2, 3, null]]);
  // A task that never saw the object gets nothing; the seen version stays what the task saw.
  const seen = await t.app.deps.prisma.taskObjectSeen.findUniqueOrThrow({ where: { taskId_objectId: { taskId: task.id, objectId: c.object.id } } });
  assert.equal(seen.version, 1);
});

test('tool writes are idempotent by the call key: a replayed call returns its version instead of writing another', async () => {
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: 'flow work' });
  const tools = t.app.deps.runtime.tools;
  const ctx = (key: string) => ({
    idempotencyKey: key,
    taskId: task.id,
    workspaceId: t.a.workspaceId,
    turnId: randomUUID(),
    uow: t.app.deps,
    signal: new AbortController().signal,
  });
  const created = (await tools.run(tools.get('create_flow')!, { name: 'Flow', nodes: [{ id: 'a', kind: 'text' }, { id: 'b', kind: 'model' }] }, ctx('k1'))) as { objectId: string; version: number };
  const again = (await tools.run(tools.get('create_flow')!, { name: 'Flow', nodes: [{ id: 'a', kind: 'text' }] }, ctx('k1'))) as { objectId: string; replayed?: boolean };
  assert.equal(again.objectId, created.objectId, 'a replayed create returns the same object');
  const edit = { objectId: created.objectId, baseVersion: 1, ops: [{ op: 'update_node', nodeId: 'a', params: { text: 'fox' } }] };
  const r1 = (await tools.run(tools.get('edit_flow')!, edit, ctx('k2'))) as Res;
  const r2 = (await tools.run(tools.get('edit_flow')!, edit, ctx('k2'))) as Res & { replayed?: boolean };
  assert.equal(r1.version, 2);
  assert.deepEqual([r2.version, r2.replayed], [2, true]);
  assert.equal(await t.app.deps.prisma.objectVersion.count({ where: { objectId: created.objectId } }), 2);
  // A conflicting node edit is a result the model can act on, not a failure.
  await updateObject(t.app.deps, viewer, {
    objectId: created.objectId,
    baseVersion: 2,
    content: { nodes: [{ id: 'a', kind: 'text', params: { text: 'fox' } }, { id: 'b', kind: 'model', params: { model: 'flux' } }], edges: [] },
  });
  const clash = (await tools.run(tools.get('edit_flow')!, { objectId: created.objectId, baseVersion: 2, ops: [{ op: 'update_node', nodeId: 'b', params: { model: 'sdxl' } }] }, ctx('k3'))) as Res & {
    error: { conflicts: { nodeId: string }[] };
  };
  assert.equal(clash.ok, false);
  assert.deepEqual(clash.error.conflicts.map((x) => x.nodeId), ['b']);
  const fine = (await tools.run(tools.get('edit_flow')!, { objectId: created.objectId, baseVersion: 2, ops: [{ op: 'update_node', nodeId: 'a', params: { text: 'owl' } }] }, ctx('k4'))) as Res & {
    notice?: string;
  };
  assert.equal(fine.version, 4);
  assert.match(fine.notice ?? '', /b/);
  // The task references the objects it made; no copies.
  const refs = await t.app.deps.prisma.taskObjectRef.findMany({ where: { taskId: task.id } });
  assert.deepEqual(refs.map((r) => r.objectId), [created.objectId]);
});
