// "None of these" on a pick card and "Decline" on a confirmation never bring back the same card: the
// offline model makes the step again as a new round of it (new candidates, ordered and priced again;
// the storyboard rewritten) with what the person said as the direction, and asks what to change when
// a declined confirmation said nothing. Runs on a worker with the offline model and the simulated
// provider; a scripted person answers the cards over GraphQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { toGlobalId } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { waitFor } from './helpers/wait.ts';

let n = 0;
const key = () => `none-${++n}`;
const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'];

describe('a declined pick or confirmation makes the step again, never the same card', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('picknone', { runtime: { leaseMs: 2000, watchdogMs: 500, staleQueuedMs: 5000, workerConcurrency: 2, maxStepsPerTurn: 12, maxTurnsPerTask: 40, plugin: undefined } });
    await t.app.startWorker({ concurrency: 2 });
  });
  after(async () => {
    await t.close();
  });

  async function api<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.a.ownerToken}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: T; errors?: { message: string }[] };
    if (body.errors?.length) throw new Error(body.errors[0]!.message);
    return body.data!;
  }
  const resolve = (approvalId: string, decision: 'APPROVE' | 'REJECT', extra: { choice?: string; note?: string } = {}) =>
    api(`mutation($input: ResolveApprovalInput!) { resolveApproval(input: $input) { approval { id } } }`, {
      input: { approvalId: toGlobalId('Approval', approvalId), decision, idempotencyKey: key(), ...extra },
    });
  async function start(text: string): Promise<string> {
    const r = await api<{ sendMessage: { task: { id: string } } }>(`mutation($input: SendMessageInput!) { sendMessage(input: $input) { task { id } } }`, {
      input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), text, idempotencyKey: key() },
    });
    return fromGlobalId(r.sendMessage.task.id).id;
  }
  /** Approves plan and price cards until a checkpoint card waits (returned) or the task ends (null). */
  async function nextCheckpoint(taskId: string, seen: Set<string>) {
    const prisma = t.app.deps.prisma;
    return waitFor(
      async () => {
        for (const a of await prisma.approval.findMany({ where: { taskId, status: 'PENDING' }, orderBy: { createdAt: 'asc' } })) {
          if (a.kind === 'CHECKPOINT') return seen.has(a.id) ? null : a;
          await resolve(a.id, 'APPROVE');
        }
        const task = await prisma.task.findUniqueOrThrow({ where: { id: taskId } });
        return TERMINAL.includes(task.status) ? ('ended' as const) : null;
      },
      `a new checkpoint card of task ${taskId}`,
      { timeoutMs: 90_000, intervalMs: 100 },
    );
  }
  const optionsOf = (a: { options: unknown }) => (a.options as { id: string; label: string; objectId?: string | null }[] | null) ?? [];

  test('"None of these" on the pick makes new candidates (a new, priced round); what was said steers them', async () => {
    const prisma = t.app.deps.prisma;
    const taskId = await start('make three retro posters for a coffee brand');
    const seen = new Set<string>();
    const first = await nextCheckpoint(taskId, seen);
    assert.notEqual(first, 'ended');
    if (first === 'ended') return;
    seen.add(first.id);
    const firstObjects = optionsOf(first).map((o) => o.objectId);
    assert.equal(firstObjects.length, 3);
    assert.ok(firstObjects.every(Boolean), 'every candidate names its picture');
    assert.deepEqual(optionsOf(first).map((o) => o.label), ['Candidate A', 'Candidate B', 'Candidate C']);
    const ordersBefore = await prisma.ledgerEntry.count({ where: { taskId, kind: 'HOLD' } });

    await resolve(first.id, 'REJECT');
    const second = await nextCheckpoint(taskId, seen);
    assert.notEqual(second, 'ended', 'the task asks again instead of ending');
    if (second === 'ended') return;
    seen.add(second.id);
    const secondObjects = optionsOf(second).map((o) => o.objectId);
    assert.equal(secondObjects.length, 3);
    assert.ok(secondObjects.every((o) => o && !firstObjects.includes(o)), 'new candidates, not the same ones');
    assert.equal(await prisma.ledgerEntry.count({ where: { taskId, kind: 'HOLD' } }), ordersBefore + 3, 'three new orders, each priced');

    // Declined with words: the next candidates follow them.
    await resolve(second.id, 'REJECT', { note: 'warmer colours, more orange' });
    const third = await nextCheckpoint(taskId, seen);
    assert.notEqual(third, 'ended');
    if (third === 'ended') return;
    seen.add(third.id);
    const thirdObjects = optionsOf(third).map((o) => o.objectId);
    assert.ok(thirdObjects.every((o) => o && !firstObjects.includes(o) && !secondObjects.includes(o)), 'new candidates again');
    const latest = await prisma.generationJob.findMany({ where: { taskId }, orderBy: { createdAt: 'desc' }, take: 3 });
    assert.ok(latest.every((j) => /warmer colours, more orange/.test(j.prompt)), latest.map((j) => j.prompt).join(' | '));

    // The pick goes on to the series, delivered by name in the look of the pick.
    await resolve(third.id, 'APPROVE', { choice: optionsOf(third)[1]!.id });
    assert.equal(await nextCheckpoint(taskId, seen), 'ended');
    const task = await prisma.task.findUniqueOrThrow({ where: { id: taskId } });
    assert.equal(task.status, 'COMPLETED');
    assert.match(task.summary, /^Delivered: \[Poster 1\]\(object:[^)]+\), \[Poster 2\]\(object:[^)]+\), \[Poster 3\]\(object:[^)]+\) — in the look of \[Candidate B\]\(object:/);
    assert.ok(task.summary.includes(`object:${thirdObjects[1]}`), 'the delivery cites the pick');
    assert.doesNotMatch(task.summary, /Delivered\. Delivered|a result/);
  });

  test('"Decline" on the storyboard asks what to change; the answer rewrites the storyboard before asking again', async () => {
    const prisma = t.app.deps.prisma;
    const taskId = await start('make a short video of ocean waves at sunset');
    const seen = new Set<string>();
    const confirm = await nextCheckpoint(taskId, seen);
    assert.notEqual(confirm, 'ended');
    if (confirm === 'ended') return;
    seen.add(confirm.id);
    assert.equal((confirm.action as { kind?: string }).kind, 'CONFIRM');

    await resolve(confirm.id, 'REJECT');
    const adjust = await nextCheckpoint(taskId, seen);
    assert.notEqual(adjust, 'ended');
    if (adjust === 'ended') return;
    seen.add(adjust.id);
    assert.equal((adjust.action as { kind?: string }).kind, 'ADJUST', 'asks what to change instead of the same card');
    assert.match(adjust.title, /what to change/);

    await resolve(adjust.id, 'APPROVE', { note: 'start at dawn instead of sunset' });
    const again = await nextCheckpoint(taskId, seen);
    assert.notEqual(again, 'ended');
    if (again === 'ended') return;
    assert.equal((again.action as { kind?: string }).kind, 'CONFIRM');
    const doc = await prisma.workspaceObject.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, kind: 'DOCUMENT' }, orderBy: { createdAt: 'desc' } });
    const text = JSON.stringify((await prisma.objectVersion.findFirstOrThrow({ where: { objectId: doc.id }, orderBy: { version: 'desc' } })).content);
    assert.match(text, /start at dawn instead of sunset/, 'the storyboard follows what was said');
  });
});
