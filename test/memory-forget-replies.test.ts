// Forgetting a memory takes the thread's own replies that repeat its value with it — the "I'll
// remember that …" acknowledgement and later answers to questions about it — in any language, while
// the person's own messages (chat history) stay. And the confirmation card names what is forgotten
// in words, never by the internal key.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Viewer } from '../server/auth/viewer.ts';
import { resolveApproval } from '../server/services/approvals/resolve-approval.ts';
import { extractPending } from '../server/services/memory/extract-memories.ts';
import { requestForgetMemory } from '../server/services/memory/request-forget.ts';
import { sendMessage } from '../server/services/messages/send-message.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { waitFor } from './helpers/wait.ts';

let t: TestApp;
let viewer: Viewer;
before(async () => {
  t = await startTestApp('forgetreplies');
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]), principal: 'HUMAN' } as Viewer;
});
after(async () => {
  await t.close();
});

let n = 0;
const say = (text: string) => sendMessage(t.app.deps, viewer, { workspaceId: t.a.workspaceId, text, idempotencyKey: `r-${++n}` });
const assistantTexts = async () => (await t.app.deps.prisma.message.findMany({ where: { workspaceId: t.a.workspaceId, role: 'ASSISTANT' }, orderBy: { createdAt: 'asc' } })).map((m) => m.text);

test('the acknowledgement and the answers that repeat a forgotten value are replaced; the person’s words stay; the card names it in words', async () => {
  const { prisma } = t.app.deps;
  await say('We moved the studio to Quorvenhaven last spring.');
  await extractPending(t.app.deps.memory, t.a.workspaceId, t.a.ownerId);
  const memory = await waitFor(() => prisma.memory.findFirst({ where: { workspaceId: t.a.workspaceId, subjectKey: 'company.location' } }), 'the studio is remembered');
  await say('where is our studio?');
  await say('Wo ist unser Studio?');
  const before = await assistantTexts();
  assert.ok(before.filter((x) => /Quorvenhaven/.test(x)).length >= 2, `the thread repeated the value: ${JSON.stringify(before)}`);
  assert.ok(!before.some((x) => /company\.location/.test(x)), `no internal key in what a person reads: ${JSON.stringify(before)}`);

  const card = await requestForgetMemory(t.app.deps, viewer, { memoryId: memory.id });
  assert.doesNotMatch(card.title, /company\.location|Quorvenhaven/, card.title);
  await resolveApproval(t.app.deps, viewer, { approvalId: card.id, decision: 'APPROVE', idempotencyKey: 'forget-studio' });

  const after = await assistantTexts();
  assert.deepEqual(after.filter((x) => /Quorvenhaven/i.test(x)), [], 'no reply of the thread repeats it');
  assert.equal(after.length, before.length, 'replaced in place, none deleted');
  const mine = await prisma.message.findMany({ where: { workspaceId: t.a.workspaceId, role: 'USER' } });
  assert.ok(mine.some((m) => m.text.includes('Quorvenhaven')), 'the person’s own message is chat history and stays');
});

test('a question about a remembered signature is answered from memory in the wording and language it is asked in', async () => {
  const { prisma } = t.app.deps;
  await say('ab jetzt unterschreibst du alles mit Studio Zorvik');
  await extractPending(t.app.deps.memory, t.a.workspaceId, t.a.ownerId);
  await waitFor(() => prisma.memory.findFirst({ where: { workspaceId: t.a.workspaceId, subjectKey: 'user.signature' } }), 'the signature is remembered');
  for (const q of ['wie unterschreibst du?', 'how do you sign my posts?', 'comment est-ce que tu signes ?', '¿cómo firmas?', '你用什么签名？', '署名は何ですか？']) {
    const before = (await assistantTexts()).length;
    await say(q);
    const replies = await assistantTexts();
    assert.ok(replies.length > before, `an answer to ${q}`);
    assert.match(replies.at(-1)!, /Studio Zorvik/, `${q} → ${replies.at(-1)}`);
  }
});
