// The shared workspace through the API and its services: versioned objects, optimistic
// concurrency (full rewrite, find/replace, per-node flow edits), permissions, delete via approval,
// no lost update under concurrent writers, generation assets exactly once, and the live feed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Viewer } from '../server/auth/viewer.ts';
import { transactWithEvents } from '../server/channel/unit-of-work.ts';
import { applyUpdate } from '../server/generation/jobs.ts';
import { approvedActionHandlers } from '../server/services/approvals/actions.ts';
import { assetIdForJob } from '../server/store/objects/create-asset.ts';
import { readObjectOp } from '../server/store/objects/operations.ts';
import { createObject, editDocument, updateObject } from '../server/services/objects/write-object.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { collect, gql, gqlOk, sseClient, toGlobalId, wsClient } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';
import {
  CreateObject,
  DeleteObject,
  EditDocument,
  EditFlow,
  ObjectChanges,
  ObjectNode,
  TaskObjects,
  UpdateObject,
  WorkspaceObjects,
} from './helpers/object-documents.ts';

let t: TestApp;
let owner: Viewer;
before(async () => {
  t = await startTestApp('objects');
  owner = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
});
after(async () => t.close());

const wsA = () => toGlobalId('Workspace', t.a.workspaceId);
const versionsOf = (objectId: string) =>
  t.app.deps.prisma.objectVersion.findMany({ where: { objectId }, orderBy: { version: 'asc' } });

async function createDoc(markdown: string, name = 'Storyboard') {
  const r = await gqlOk(t.url, t.a.ownerToken, CreateObject, { input: { workspaceId: wsA(), kind: 'DOCUMENT', name, content: { markdown } } });
  return r.createObject.object.id;
}

test('a document: create, full rewrite with its base version, stale base refused with the current version, nothing written', async () => {
  const id = await createDoc('# Shot 1\nwide beach\n\n# Shot 2\nclose-up\n');
  const u = await gqlOk(t.url, t.a.ownerToken, UpdateObject, {
    input: { objectId: id, baseVersion: 1, content: { markdown: '# Shot 1\nwide beach\n\n# Shot 2\nclose-up, cool tones\n' } },
  });
  assert.equal(u.updateObject.object.currentVersion, 2);
  assert.equal(u.updateObject.version.author.kind, 'USER');
  assert.match(u.updateObject.summary, /Shot 2/);
  assert.doesNotMatch(u.updateObject.summary, /Shot 1/);
  const stale = await gql(t.url, t.a.ownerToken, UpdateObject, { input: { objectId: id, baseVersion: 1, content: { markdown: 'overwrite' } } });
  assert.equal(stale.errors?.[0]?.extensions?.code, 'CONFLICT');
  assert.equal(stale.errors?.[0]?.extensions?.currentVersion, 2);
  assert.equal(stale.errors?.[0]?.extensions?.reason, 'STALE_BASE_VERSION');
  const rows = await versionsOf(fromGlobalId(id).id);
  assert.deepEqual(rows.map((r) => r.version), [1, 2]);
  const q = await gqlOk(t.url, t.a.readToken, ObjectNode, { id });
  assert.ok(q.node && 'currentVersion' in q.node);
  assert.equal(q.node.currentVersion, 2);
  assert.match(q.node.current.markdown ?? '', /cool tones/);
  assert.equal(q.node.version?.markdown, '# Shot 1\nwide beach\n\n# Shot 2\nclose-up\n', 'old versions are kept as they were');
  const list = await gqlOk(t.url, t.a.readToken, WorkspaceObjects, { id: wsA(), kind: 'DOCUMENT' });
  assert.ok(list.workspace.objects.edges.some((e) => e.node.id === id));
  // Bad content is a typed error, nothing written.
  const bad = await gql(t.url, t.a.ownerToken, UpdateObject, { input: { objectId: id, baseVersion: 2, content: { nodes: [] } } });
  assert.equal(bad.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  assert.equal((await versionsOf(fromGlobalId(id).id)).length, 2);
});

test('find/replace: a find matching twice is refused with its match count; a unique one applies; a stale base with a failing find is CONFLICT', async () => {
  const id = await createDoc('# Shot 1\nwarm light\n\n# Shot 2\nwarm light\n\n# Shot 3\nnight\n');
  const twice = await gql(t.url, t.a.ownerToken, EditDocument, { input: { objectId: id, baseVersion: 1, edits: [{ find: 'warm light', replace: 'cool light' }] } });
  assert.equal(twice.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  assert.deepEqual(twice.errors?.[0]?.extensions?.failures, [{ index: 0, find: 'warm light', matches: 2 }]);
  const none = await gql(t.url, t.a.ownerToken, EditDocument, {
    input: { objectId: id, edits: [{ find: 'night', replace: 'dawn' }, { find: 'missing', replace: 'x' }] },
  });
  assert.deepEqual(none.errors?.[0]?.extensions?.failures, [{ index: 1, find: 'missing', matches: 0 }]);
  assert.equal((await versionsOf(fromGlobalId(id).id)).length, 1, 'all or nothing: the matching edit was not applied either');
  const ok = await gqlOk(t.url, t.a.ownerToken, EditDocument, {
    input: { objectId: id, baseVersion: 1, edits: [{ find: '# Shot 2\nwarm light', replace: '# Shot 2\ncool light' }, { find: 'night', replace: 'dawn' }] },
  });
  assert.equal(ok.editDocument.version.markdown, '# Shot 1\nwarm light\n\n# Shot 2\ncool light\n\n# Shot 3\ndawn\n');
  const stale = await gql(t.url, t.a.ownerToken, EditDocument, { input: { objectId: id, baseVersion: 1, edits: [{ find: 'night', replace: 'dusk' }] } });
  assert.equal(stale.errors?.[0]?.extensions?.code, 'CONFLICT');
  assert.equal(stale.errors?.[0]?.extensions?.currentVersion, 2);
});

test('flows: edits to different nodes both apply (with a notice of the other change); the same node conflicts, nothing written', async () => {
  const flow = {
    nodes: [
      { id: 'prompt', kind: 'text', params: { text: 'a fox' } },
      { id: 'model', kind: 'image-model', params: { model: 'sdxl' }, inputs: { prompt: { node: 'prompt' } } },
      { id: 'upscale', kind: 'upscale', params: { factor: 2 } },
    ],
    edges: [{ from: 'prompt', to: 'model' }, { from: 'model', to: 'upscale' }],
  };
  const c = await gqlOk(t.url, t.a.ownerToken, CreateObject, { input: { workspaceId: wsA(), kind: 'FLOW', name: 'Fox flow', content: flow } });
  const id = c.createObject.object.id;
  // Person 1 changes the model node (based on v1).
  const a = await gqlOk(t.url, t.a.ownerToken, EditFlow, { input: { objectId: id, baseVersion: 1, ops: [{ op: 'update_node', nodeId: 'model', params: { model: 'flux' } }] } });
  assert.equal(a.editFlow.version.version, 2);
  // Someone else, also based on v1, changes the upscale node: applies, and is told about "model".
  const b = await gqlOk(t.url, t.a.ownerToken, EditFlow, { input: { objectId: id, baseVersion: 1, ops: [{ op: 'update_node', nodeId: 'upscale', params: { factor: 4 } }] } });
  assert.equal(b.editFlow.version.version, 3);
  assert.deepEqual(b.editFlow.changedByOthers, ['model']);
  const content = b.editFlow.version.content as { nodes: { id: string; params: Record<string, unknown> }[] };
  assert.deepEqual(content.nodes.find((n) => n.id === 'model')!.params, { model: 'flux' }, 'the other edit is kept');
  assert.deepEqual(content.nodes.find((n) => n.id === 'upscale')!.params, { factor: 4 });
  assert.deepEqual(b.editFlow.version.nodeVersions, { prompt: 1, model: 2, upscale: 3 });
  // Based on v1 again, touching "model" (changed in v2): conflict naming the node; nothing written.
  const c2 = await gql(t.url, t.a.ownerToken, EditFlow, {
    input: { objectId: id, baseVersion: 1, ops: [{ op: 'update_node', nodeId: 'model', params: { model: 'sd3' } }, { op: 'update_node', nodeId: 'prompt', params: { text: 'a cat' } }] },
  });
  assert.equal(c2.errors?.[0]?.extensions?.code, 'CONFLICT');
  assert.equal(c2.errors?.[0]?.extensions?.reason, 'NODE_CONFLICT');
  assert.deepEqual((c2.errors?.[0]?.extensions?.conflicts as { nodeId: string }[]).map((x) => x.nodeId), ['model']);
  assert.equal((await versionsOf(fromGlobalId(id).id)).length, 3);
  // An invalid graph is refused.
  const bad = await gql(t.url, t.a.ownerToken, EditFlow, { input: { objectId: id, baseVersion: 3, ops: [{ op: 'add_edge', edge: { from: 'model', to: 'nowhere' } }] } });
  assert.equal(bad.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
});

test('collections are ordered references to objects of the same workspace (no copies); missing or foreign items are refused', async () => {
  const a = await createDoc('# A\n', 'A');
  const b = await createDoc('# B\n', 'B');
  const foreign = await gqlOk(t.url, t.b.ownerToken, CreateObject, {
    input: { workspaceId: toGlobalId('Workspace', t.b.workspaceId), kind: 'DOCUMENT', name: 'theirs', content: { markdown: '' } },
  });
  const items = [b, a].map((g) => ({ objectId: fromGlobalId(g).id }));
  const c = await gqlOk(t.url, t.a.ownerToken, CreateObject, { input: { workspaceId: wsA(), kind: 'COLLECTION', name: 'Moodboard', content: { items } } });
  const q = await gqlOk(t.url, t.a.readToken, ObjectNode, { id: c.createObject.object.id });
  assert.ok(q.node && 'content' in q.node);
  assert.deepEqual(q.node.content, { items }, 'order kept, ids only');
  const bad = await gql(t.url, t.a.ownerToken, UpdateObject, {
    input: { objectId: c.createObject.object.id, baseVersion: 1, content: { items: [...items, { objectId: fromGlobalId(foreign.createObject.object.id).id }] } },
  });
  assert.equal(bad.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  assert.equal((await versionsOf(fromGlobalId(c.createObject.object.id).id)).length, 1);
  // The same idempotency key returns the same object instead of a second one.
  const k1 = await gqlOk(t.url, t.a.ownerToken, CreateObject, { input: { workspaceId: wsA(), kind: 'DOCUMENT', name: 'Once', content: { markdown: 'x' }, idempotencyKey: 'once' } });
  const k2 = await gqlOk(t.url, t.a.ownerToken, CreateObject, { input: { workspaceId: wsA(), kind: 'DOCUMENT', name: 'Once', content: { markdown: 'x' }, idempotencyKey: 'once' } });
  assert.equal(k2.createObject.object.id, k1.createObject.object.id);
  assert.equal(k2.createObject.replayed, true);
});

test('permissions: viewers and read-only tokens cannot write; another workspace sees NOT_FOUND / null', async () => {
  const id = await createDoc('# Brief\nhello\n', 'Brief');
  for (const token of [t.a.viewerToken, t.a.readToken]) {
    const r = await gql(t.url, token, UpdateObject, { input: { objectId: id, baseVersion: 1, content: { markdown: 'x' } } });
    assert.equal(r.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    const c = await gql(t.url, token, CreateObject, { input: { workspaceId: wsA(), kind: 'DOCUMENT', name: 'x', content: { markdown: '' } } });
    assert.equal(c.errors?.[0]?.extensions?.code, 'FORBIDDEN');
  }
  const foreign = await gql(t.url, t.b.ownerToken, UpdateObject, { input: { objectId: id, baseVersion: 1, content: { markdown: 'x' } } });
  assert.equal(foreign.errors?.[0]?.extensions?.code, 'NOT_FOUND');
  const del = await gql(t.url, t.b.ownerToken, DeleteObject, { objectId: id });
  assert.equal(del.errors?.[0]?.extensions?.code, 'NOT_FOUND');
  const seen = await gqlOk(t.url, t.b.ownerToken, ObjectNode, { id });
  assert.equal(seen.node, null);
  assert.equal((await versionsOf(fromGlobalId(id).id)).length, 1);
});

test('delete needs a person: a pending IRREVERSIBLE approval first; the approved handler soft-deletes; a deleted object cannot be edited', async () => {
  const id = await createDoc('# Old\ntext\n', 'Old brief');
  const objectId = fromGlobalId(id).id;
  const d = await gqlOk(t.url, t.a.ownerToken, DeleteObject, { objectId: id });
  assert.equal(d.deleteObject.approvalStatus, 'PENDING');
  assert.equal(d.deleteObject.object.deletedAt, null, 'nothing deleted before approval');
  const again = await gqlOk(t.url, t.a.ownerToken, DeleteObject, { objectId: id });
  assert.equal(again.deleteObject.approvalId, d.deleteObject.approvalId, 'asking twice files one approval');
  const approval = await t.app.deps.prisma.approval.findUniqueOrThrow({ where: { id: fromGlobalId(d.deleteObject.approvalId).id } });
  assert.equal(approval.kind, 'IRREVERSIBLE');
  assert.deepEqual(approval.action, { type: 'DELETE_OBJECT', objectId, version: 1 });
  // What resolveApproval does on APPROVED: run the handler in its transaction.
  const run = () =>
    transactWithEvents(t.app.deps, (tx, emit) =>
      approvedActionHandlers.DELETE_OBJECT!(approval.action as Record<string, unknown>, {
        tx,
        emit,
        deps: t.app.deps,
        approval: { id: approval.id, workspaceId: approval.workspaceId, taskId: null },
        userId: t.a.ownerId,
      }),
    );
  assert.deepEqual((await run()).value, { deleted: true, objectId, version: 1 });
  assert.deepEqual((await run()).value, { deleted: true, objectId, alreadyDeleted: true }, 'idempotent');
  const edit = await gql(t.url, t.a.ownerToken, EditDocument, { input: { objectId: id, edits: [{ find: 'text', replace: 'new' }] } });
  assert.equal(edit.errors?.[0]?.extensions?.code, 'CONFLICT');
  assert.equal(edit.errors?.[0]?.extensions?.reason, 'OBJECT_DELETED');
  const q = await gqlOk(t.url, t.a.readToken, ObjectNode, { id });
  assert.ok(q.node && 'deletedAt' in q.node && q.node.deletedAt, 'history stays readable');
  const feed = await t.app.deps.prisma.objectChange.findMany({ where: { objectId }, orderBy: { position: 'asc' } });
  assert.deepEqual(feed.map((f) => f.kind), ['CREATED', 'DELETED']);
});

const ResolveDelete = graphql(`
  mutation ResolveDelete($input: ResolveApprovalInput!) {
    resolveApproval(input: $input) { approval { id status outcome } }
  }
`);

test('deleting through the API end to end: only a person with the approve scope confirms, and the decision deletes in the same transaction', async () => {
  const id = await createDoc('# Draft\nsoon gone\n', 'Scratch notes');
  const d = await gqlOk(t.url, t.a.ownerToken, DeleteObject, { objectId: id });
  const input = { approvalId: d.deleteObject.approvalId, decision: 'APPROVE' as const, idempotencyKey: 'del-1' };
  const ro = await gql(t.url, t.a.readToken, ResolveDelete, { input });
  assert.equal(ro.errors?.[0]?.extensions?.code, 'FORBIDDEN');
  assert.equal((await t.app.deps.prisma.workspaceObject.findUniqueOrThrow({ where: { id: fromGlobalId(id).id } })).deletedAt, null, 'nothing deleted by the refused attempt');
  const ok = await gqlOk(t.url, t.a.ownerToken, ResolveDelete, { input });
  assert.equal(ok.resolveApproval.approval.status, 'APPROVED');
  assert.deepEqual((ok.resolveApproval.approval.outcome as { deleted: boolean }).deleted, true);
  const row = await t.app.deps.prisma.workspaceObject.findUniqueOrThrow({ where: { id: fromGlobalId(id).id } });
  assert.ok(row.deletedAt, 'deleted by the decision');
});

test('concurrent writers never lose an update: every accepted edit is in the history, no version skipped', async () => {
  const lines = 8;
  const doc = Array.from({ length: lines }, (_, i) => `line-${i}: 0`).join('\n');
  const created = await createObject(t.app.deps, owner, { workspaceId: t.a.workspaceId, kind: 'DOCUMENT', name: 'counter', content: { markdown: doc } });
  const objectId = created.object.id;
  // Random editors: find/replace increments of one line (each find is unique), and full rewrites
  // that read the current version first and append a marker line (stale ones are refused).
  let seed = 42;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const accepted: { version: number; kind: 'inc' | 'rewrite'; line?: number; marker?: string }[] = [];
  let refused = 0;
  const editor = async (e: number) => {
    for (let k = 0; k < 6; k++) {
      if (rand(3) > 0) {
        const line = rand(lines);
        const { version } = await readObjectOp(t.app.deps.prisma, { workspaceId: t.a.workspaceId, objectId });
        const cur = new RegExp(`line-${line}: (\\d+)`).exec((version.content as { markdown: string }).markdown)!;
        try {
          const r = await editDocument(t.app.deps, owner, {
            objectId,
            edits: [{ find: cur[0], replace: `line-${line}: ${Number(cur[1]) + 1}` }],
          });
          accepted.push({ version: r.version, kind: 'inc', line });
        } catch (err) {
          if ((err as { code?: string }).code !== 'BAD_USER_INPUT') throw err;
          refused++;
        }
      } else {
        const { version } = await readObjectOp(t.app.deps.prisma, { workspaceId: t.a.workspaceId, objectId });
        const marker = `marker-${e}-${k}`;
        try {
          const r = await updateObject(t.app.deps, owner, {
            objectId,
            baseVersion: version.version,
            content: { markdown: `${(version.content as { markdown: string }).markdown}\n${marker}` },
          });
          accepted.push({ version: r.version, kind: 'rewrite', marker });
        } catch (err) {
          if ((err as { code?: string }).code !== 'CONFLICT') throw err;
          refused++;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: 12 }, (_, e) => editor(e)));
  const rows = await versionsOf(objectId);
  assert.deepEqual(rows.map((r) => r.version), Array.from({ length: rows.length }, (_, i) => i + 1), 'gap-free');
  assert.equal(rows.length, accepted.length + 1, 'one version per accepted edit');
  assert.deepEqual(new Set(accepted.map((a) => a.version)).size, accepted.length, 'no two accepted edits share a version');
  const final = (rows.at(-1)!.content as { markdown: string }).markdown;
  for (let i = 0; i < lines; i++) {
    const incs = accepted.filter((a) => a.kind === 'inc' && a.line === i).length;
    assert.match(final, new RegExp(`line-${i}: ${incs}(\\n|$)`), `line ${i}: every accepted increment survived`);
  }
  for (const a of accepted.filter((x) => x.kind === 'rewrite')) assert.ok(final.includes(a.marker!), `rewrite ${a.marker} survived`);
  assert.ok(accepted.length > 0 && refused >= 0);
  const feed = await t.app.deps.prisma.objectChange.findMany({ where: { workspaceId: t.a.workspaceId }, orderBy: { position: 'asc' } });
  assert.deepEqual(feed.map((f) => Number(f.position)), Array.from({ length: feed.length }, (_, i) => i + 1), 'feed positions gap-free');
});

test('a successful generation creates exactly one asset object (v1, file, provenance, referenced by the task) under duplicate callbacks', async () => {
  const task = await createTask(t.app.deps, owner, { workspaceId: t.a.workspaceId, title: 'poster' });
  const provider = t.app.deps.jobs.provider.name;
  const job = await t.app.deps.prisma.generationJob.create({
    data: { workspaceId: t.a.workspaceId, taskId: task.id, kind: 'IMAGE', provider, idempotencyKey: 'k-asset', prompt: 'a red poster', params: {}, status: 'RUNNING', upstreamJobId: 'up-asset-1' },
  });
  const files = [{ path: '/tmp/x.png', mime: 'image/png', bytes: 1234, width: 256, height: 256 }];
  const results = await Promise.all(
    Array.from({ length: 5 }, () => applyUpdate(t.app.deps.jobs, { upstreamJobId: 'up-asset-1', status: 'SUCCEEDED', progress: 1, files })),
  );
  assert.equal(results.filter(Boolean).length, 1, 'one update took effect');
  const objects = await t.app.deps.prisma.workspaceObject.findMany({ where: { workspaceId: t.a.workspaceId, kind: 'IMAGE' } });
  assert.equal(objects.length, 1);
  assert.equal(objects[0]!.id, assetIdForJob(job.id));
  const v = await versionsOf(objects[0]!.id);
  assert.equal(v.length, 1);
  assert.deepEqual(v[0]!.content, {
    file: files[0],
    provenance: { prompt: 'a red poster', provider, jobId: job.id, taskId: task.id },
  });
  const q = await gqlOk(t.url, t.a.readToken, TaskObjects, { id: toGlobalId('Task', task.id) });
  assert.equal(q.task.objects.length, 1);
  assert.deepEqual(q.task.objects[0]!.current.file, { mime: 'image/png', bytes: 1234 });
  assert.equal(q.task.jobs[0]!.asset?.id, toGlobalId('WorkspaceObject', objects[0]!.id));
  const inbox = await t.app.deps.prisma.inboxItem.findFirstOrThrow({ where: { taskId: task.id, signal: 'JOB_RESULT' } });
  assert.ok(inbox.text?.includes(objects[0]!.id), 'the result the agent reads names the asset object');
  // A late duplicate changes nothing.
  await applyUpdate(t.app.deps.jobs, { upstreamJobId: 'up-asset-1', status: 'SUCCEEDED', progress: 1, files });
  assert.equal(await t.app.deps.prisma.objectVersion.count({ where: { objectId: objects[0]!.id } }), 1);
});

test('objectChanges: replays from a cursor, then streams live changes, in gap-free order', async () => {
  const id = await createDoc('# A\none\n', 'Live doc');
  await gqlOk(t.url, t.a.ownerToken, UpdateObject, { input: { objectId: id, baseVersion: 1, content: { markdown: '# A\ntwo\n' } } });
  const objectId = fromGlobalId(id).id;
  const first = await t.app.deps.prisma.objectChange.findFirstOrThrow({ where: { objectId, version: 1 } });
  const head = Number(first.position);
  // Cursor right after the creation: the update replays, then live ones follow.
  const cursor = Buffer.from(`v1:${t.a.workspaceId}:${head}`, 'utf8').toString('base64url');
  const client = wsClient(t.url, t.a.readToken);
  const { collector, stop } = collect(client, ObjectChanges, { workspaceId: wsA(), after: cursor });
  try {
    await collector.until((items) => items.length >= 1, 20_000, 'replay');
    assert.equal(collector.items[0]!.objectChanges.versionNumber, 2);
    assert.equal(collector.items[0]!.objectChanges.objectId, id);
    await gqlOk(t.url, t.a.ownerToken, UpdateObject, { input: { objectId: id, baseVersion: 2, content: { markdown: '# A\nthree\n' } } });
    await gqlOk(t.url, t.a.ownerToken, EditDocument, { input: { objectId: id, edits: [{ find: 'three', replace: 'four' }] } });
    await collector.until((items) => items.length >= 3, 20_000, 'live changes');
    const got = collector.items.map((i) => i.objectChanges);
    assert.deepEqual(got.map((g) => g.versionNumber), [2, 3, 4]);
    assert.deepEqual(got.map((g) => g.position), [head + 1, head + 2, head + 3], 'no gap, no duplicate');
    assert.equal(got[2]!.version?.summary, 'changed sections: A');
    // Resuming from the last cursor yields nothing old.
    const { collector: c2, stop: stop2 } = collect(client, ObjectChanges, { workspaceId: wsA(), after: got[1]!.cursor });
    await c2.until((items) => items.length >= 1, 20_000, 'resume');
    assert.equal(c2.items[0]!.objectChanges.versionNumber, 4);
    stop2();
    // The same over SSE.
    const sse = sseClient(t.url, t.a.readToken);
    const { collector: c4, stop: stop4 } = collect(sse, ObjectChanges, { workspaceId: wsA(), after: cursor });
    await c4.until((items) => items.length >= 3, 20_000, 'sse replay');
    assert.deepEqual(c4.items.map((i) => i.objectChanges.versionNumber), [2, 3, 4]);
    stop4();
    sse.dispose();
    // Another workspace cannot subscribe to this one.
    const other = wsClient(t.url, t.b.ownerToken);
    const { collector: c3, stop: stop3 } = collect(other, ObjectChanges, { workspaceId: wsA() });
    await c3.untilDone();
    assert.equal((c3.errors[0] as { extensions?: { code?: string } }[])[0]?.extensions?.code, 'NOT_FOUND');
    stop3();
    await other.dispose();
  } finally {
    stop();
    await client.dispose();
  }
});
