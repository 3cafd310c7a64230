// The shared workspace under concurrency: no lost update under concurrent writers, generation
// assets created exactly once under duplicate callbacks, and the live feed of object changes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyUpdate } from '../server/generation/jobs.ts';
import { assetIdForJob } from '../server/store/objects/create-asset.ts';
import { readObjectOp } from '../server/store/objects/operations.ts';
import { createObject, editDocument, updateObject } from '../server/services/objects/write-object.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { collect, gqlOk, sseClient, toGlobalId, wsClient } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { EditDocument, ObjectChanges, TaskObjects, UpdateObject } from './helpers/object-documents.ts';
import { createDoc, owner, t, useObjectsApp, versionsOf, wsA } from './helpers/objects.ts';

useObjectsApp();

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
