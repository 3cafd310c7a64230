// Semantic retrieval for the router (only with an embedding model): an older task that shares no
// words with the message — here another language — is found and routed to; the embedding client is
// the real OpenAI one against a local stub.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createEmbedder } from '../server/routing/embeddings.ts';
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

test('an old English task is found from a German message with no shared words, through embeddings', async () => {
  const { prisma } = t.app.deps;
  const bike = await prisma.task.create({
    data: { workspaceId: t.a.workspaceId, title: 'Bicycle race poster', goal: 'poster for the city bicycle race', status: 'RUNNING', lastActivityAt: new Date(Date.now() - 40 * 86400_000) },
  });
  // 25 more recent tasks push it out of the recent part of the index.
  await prisma.task.createMany({
    data: Array.from({ length: 25 }, (_, i) => ({ workspaceId: t.a.workspaceId, title: `Catalogue page ${i}`, goal: `catalogue page ${i}`, status: 'COMPLETED' as const })),
  });
  const r = (
    await gqlOk(t.url, t.a.ownerToken, SendMessage, {
      input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), text: 'Das Radrennen-Plakat bitte heller', idempotencyKey: 's1' },
    })
  ).sendMessage;
  assert.deepEqual([r.route.outcome, r.task?.id], ['EXISTING_TASK', toGlobalId('Task', bike.id)], r.route.reason);
  assert.ok(r.route.indexSize <= 35);
  assert.ok(stub.embeddingRequests.some((q) => q.model === 'stub-embed' && q.input.includes('Das Radrennen-Plakat bitte heller')));
  const stored = await prisma.taskEmbedding.findUniqueOrThrow({ where: { taskId: bike.id } });
  assert.equal(stored.model, 'stub-embed');
  // Embeddings are not recomputed while the task's text is unchanged.
  const before = stub.embeddingRequests.reduce((n, q) => n + q.input.length, 0);
  await gqlOk(t.url, t.a.ownerToken, SendMessage, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), text: 'Fahrrad-Plakat: Logo größer', idempotencyKey: 's2' } });
  const added = stub.embeddingRequests.reduce((n, q) => n + q.input.length, 0) - before;
  assert.equal(added, 1, 'only the new message is embedded: no task text changed');
  const info = await gqlOk(t.url, t.a.readToken, RuntimeInfoQuery);
  assert.equal(info.viewer.runtime.model.offline, true);
});
