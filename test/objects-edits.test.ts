// The shared workspace through the API and its services, edits: versioned documents, optimistic
// concurrency (full rewrite, find/replace, per-node flow edits) and collections of references.
// Permissions and deletion: objects-permissions.test.ts; concurrent writers, generation assets
// and the live feed: objects-concurrency.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { CreateObject, EditDocument, EditFlow, ObjectNode, UpdateObject, WorkspaceObjects } from './helpers/object-documents.ts';
import { createDoc, t, useObjectsApp, versionsOf, wsA } from './helpers/objects.ts';

useObjectsApp();

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
  // Items name objects by their global ids, in and out.
  const items = [b, a].map((g) => ({ objectId: g }));
  const c = await gqlOk(t.url, t.a.ownerToken, CreateObject, { input: { workspaceId: wsA(), kind: 'COLLECTION', name: 'Moodboard', content: { items } } });
  const q = await gqlOk(t.url, t.a.readToken, ObjectNode, { id: c.createObject.object.id });
  assert.ok(q.node && 'content' in q.node);
  assert.deepEqual(q.node.content, { items }, 'order kept, ids only');
  const bad = await gql(t.url, t.a.ownerToken, UpdateObject, {
    input: { objectId: c.createObject.object.id, baseVersion: 1, content: { items: [...items, { objectId: foreign.createObject.object.id }] } },
  });
  assert.equal(bad.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  const rawKey = await gql(t.url, t.a.ownerToken, UpdateObject, {
    input: { objectId: c.createObject.object.id, baseVersion: 1, content: { items: [{ objectId: fromGlobalId(a).id }] } },
  });
  assert.deepEqual([rawKey.errors?.[0]?.extensions?.code, rawKey.errors?.[0]?.message], ['BAD_USER_INPUT', 'input.content.items.0.objectId is not a valid id']);
  assert.equal((await versionsOf(fromGlobalId(c.createObject.object.id).id)).length, 1);
  // The same idempotency key returns the same object instead of a second one.
  const k1 = await gqlOk(t.url, t.a.ownerToken, CreateObject, { input: { workspaceId: wsA(), kind: 'DOCUMENT', name: 'Once', content: { markdown: 'x' }, idempotencyKey: 'once' } });
  const k2 = await gqlOk(t.url, t.a.ownerToken, CreateObject, { input: { workspaceId: wsA(), kind: 'DOCUMENT', name: 'Once', content: { markdown: 'x' }, idempotencyKey: 'once' } });
  assert.equal(k2.createObject.object.id, k1.createObject.object.id);
  assert.equal(k2.createObject.replayed, true);
});
