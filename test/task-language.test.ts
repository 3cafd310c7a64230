// A task speaks its language (EN, DE, FR, ES, ZH, JA) in everything a person reads from it: the
// offline model's plan (step titles), its checkpoint questions and candidate labels, the plan card
// the runtime files, and the delivery summary. Here a German request runs end to end on a worker
// with the offline model and a person answering every card; per-language templates are checked in
// replies.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { textsFor } from '../server/domain/replies/texts.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { waitFor } from './helpers/wait.ts';

const Send = graphql(`
  mutation TaskLanguageSend($input: SendMessageInput!) {
    sendMessage(input: $input) { route { outcome } task { id } }
  }
`);

const Resolve = graphql(`
  mutation TaskLanguageResolve($input: ResolveApprovalInput!) {
    resolveApproval(input: $input) { approval { id status } }
  }
`);

let n = 0;
const key = () => `tl-${++n}`;

describe('a task started in German speaks German, from its plan card to its delivery', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('tasklang', { runtime: { leaseMs: 2000, watchdogMs: 500, staleQueuedMs: 5000, workerConcurrency: 2, maxStepsPerTurn: 12, maxTurnsPerTask: 25, plugin: undefined } });
    await t.app.startWorker({ concurrency: 2 });
  });
  after(async () => {
    await t.close();
  });

  test('plan card, pick card and delivery', async () => {
    const prisma = t.app.deps.prisma;
    const de = textsFor('de');
    const text = 'Drei Plakate für das Kaffeefest';
    const r = (await gqlOk(t.url, t.a.ownerToken, Send, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), text, idempotencyKey: key() } })).sendMessage;
    assert.equal(r.route.outcome, 'NEW_TASK');
    const taskId = fromGlobalId(r.task!.id).id;
    assert.equal((await prisma.task.findUniqueOrThrow({ where: { id: taskId } })).language, 'de');
    // Answer every card as a person would (approve; pick the first candidate) until the task ends.
    const seen: { kind: string; title: string; labels: string[]; reasons: string[] }[] = [];
    const status = await waitFor(
      async () => {
        for (const a of await prisma.approval.findMany({ where: { taskId, status: 'PENDING' } })) {
          const options = (a.options as { id: string; label: string }[] | null) ?? [];
          seen.push({ kind: a.kind, title: a.title, labels: options.map((o) => o.label), reasons: (a.reasons as { message: string }[]).map((x) => x.message) });
          await gqlOk(t.url, t.a.ownerToken, Resolve, { input: { approvalId: toGlobalId('Approval', a.id), decision: 'APPROVE', idempotencyKey: key(), ...(options[0] ? { choice: options[0].id } : {}) } });
        }
        const s = (await prisma.task.findUniqueOrThrow({ where: { id: taskId } })).status;
        return ['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'].includes(s) ? s : null;
      },
      'the German poster task to end',
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    assert.equal(status, 'COMPLETED');
    const plan = seen.find((c) => c.kind === 'PLAN')!;
    assert.match(plan.title, /^Plan: 5 Schritte, geschätzt /);
    assert.deepEqual(plan.reasons, [de.planReasonNew]);
    const pick = seen.find((c) => c.kind === 'CHECKPOINT')!;
    assert.equal(pick.title, de.offline.choose('Richtung wählen'));
    assert.deepEqual(pick.labels, ['Entwurf A', 'Entwurf B', 'Entwurf C']);
    const task = await prisma.task.findUniqueOrThrow({ where: { id: taskId } });
    assert.match(task.summary, /^Geliefert: \[Plakat 1\]\(object:[^)]+\), \[Plakat 2\]\(object:[^)]+\), \[Plakat 3\]\(object:[^)]+\) — im Look von \[Entwurf A\]\(object:/);
    assert.doesNotMatch(task.summary, /Delivered|Poster 1|Look candidates/, task.summary);
  });
});
