// Retrieval through an embedding model for the router (only with an embedding model configured): an
// older task outside the recent part of the index, which the message matches in no word, is found
// through the embeddings and the message routed to it; without the embeddings the same message is
// not. The embedding client is the real OpenAI one against a local stub whose "model" is a hashed
// bag of character trigrams (test/helpers/openai-stub.ts): it knows no words and no languages, so
// what it can bring together are texts sharing pieces of words — here a German compound
// ("Radrennplakat") and its parts written apart ("Plakat vom Radrennen"), which the router's word
// features keep apart. Meaning across languages needs a real model and is not claimed here.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createEmbedder } from '../server/routing/embeddings.ts';
import { routeOffline } from '../server/routing/offline-router.ts';
import { loadTaskIndex } from '../server/routing/task-index.ts';
import { features } from '../server/routing/text.ts';
import { INDEX_MAX } from '../server/routing/types.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { RuntimeInfoQuery, SendMessage } from './helpers/documents.ts';
import { startOpenAIStub } from './helpers/openai-stub.ts';

let stub: Awaited<ReturnType<typeof startOpenAIStub>>;
let t: TestApp;
before(async () => {
  stub = await startOpenAIStub(() => ({ role: 'assistant', content: 'unused' }));
  const embedder = createEmbedder({ baseUrl: stub.baseUrl, apiKey: 'sk-test', model: 'stub-embed' })!;
  // The offline model and router, with the stub's embeddings: only retrieval changes.
  t = await startTestApp('semantic', {}, { embedder });
});
after(async () => {
  await t?.close();
  await stub?.close();
});

const MESSAGE = 'Plakat vom Radrennen heller';

test('an old task that shares no word with the message is found and routed to through embeddings (and not without them)', async () => {
  const { prisma } = t.app.deps;
  const race = await prisma.task.create({
    data: { workspaceId: t.a.workspaceId, title: 'Radrennplakat', goal: 'Radrennplakat für die Altstadt', status: 'RUNNING', lastActivityAt: new Date(Date.now() - 40 * 86400_000) },
  });
  // 25 more recent tasks push it out of the recent part of the index.
  await prisma.task.createMany({
    data: Array.from({ length: 25 }, (_, i) => ({ workspaceId: t.a.workspaceId, title: `Catalogue page ${i}`, goal: `catalogue page ${i}`, status: 'COMPLETED' as const })),
  });
  // The premise: not one word in common (they share a concept, poster — Plakat in both — which the
  // router reads once a task is in its index; the database's word retrieval does not find it).
  const shared = [...features(MESSAGE)].filter((f) => !f.startsWith('§') && features(`${race.title} ${race.goal}`).has(f));
  assert.deepEqual(shared, [], 'the message and the task share no word');
  // Words alone (no embedder): the message does not go to the old task.
  const wordsOnly = routeOffline(MESSAGE, await loadTaskIndex(prisma, t.a.workspaceId, MESSAGE, null));
  assert.notEqual(wordsOnly.taskId, race.id, `without embeddings: ${wordsOnly.outcome} (${wordsOnly.reason})`);

  const r = (
    await gqlOk(t.url, t.a.ownerToken, SendMessage, {
      input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), text: MESSAGE, idempotencyKey: 's1' },
    })
  ).sendMessage;
  assert.deepEqual([r.route.outcome, r.task?.id], ['EXISTING_TASK', toGlobalId('Task', race.id)], r.route.reason);
  assert.ok(r.route.indexSize <= INDEX_MAX);
  assert.ok(stub.embeddingRequests.some((q) => q.model === 'stub-embed' && q.input.includes(MESSAGE)));
  const stored = await prisma.taskEmbedding.findUniqueOrThrow({ where: { taskId: race.id } });
  assert.equal(stored.model, 'stub-embed');
  // Embeddings are not recomputed while the task's text is unchanged.
  const before = stub.embeddingRequests.reduce((n, q) => n + q.input.length, 0);
  await gqlOk(t.url, t.a.ownerToken, SendMessage, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), text: 'Fahrrad-Plakat: Logo größer', idempotencyKey: 's2' } });
  const added = stub.embeddingRequests.reduce((n, q) => n + q.input.length, 0) - before;
  assert.equal(added, 1, 'only the new message is embedded: no task text changed');
  const info = await gqlOk(t.url, t.a.readToken, RuntimeInfoQuery);
  assert.equal(info.viewer.runtime.model.offline, true);
});
