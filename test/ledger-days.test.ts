// The ledger per day as /settings shows it: "on hold" is what is still held now — holds whose order
// has been neither charged nor released — not every hold placed that day (which equals what was
// charged plus released once every job has settled).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { insertHold, insertSettlement } from '../server/store/ledger-holds.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';

const LedgerDaysText = `query($id: ID!) { workspace(id: $id) { ledgerByDay(days: 7) { day heldCents onHoldCents chargedCents releasedCents entries } } }`;
type Days = { workspace: { ledgerByDay: { day: string; heldCents: number; onHoldCents: number; chargedCents: number; releasedCents: number; entries: number }[] } };
const LedgerDays = parse(LedgerDaysText) as TypedDocumentNode<Days, { id: string }>;

describe('ledger per day', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('ledger-days');
  });
  after(async () => {
    await t?.close();
  });

  test('on hold counts only holds not yet charged or released', async () => {
    const db = t.app.deps.prisma;
    const ws = t.a.workspaceId;
    const task = await db.task.create({ data: { workspaceId: ws, title: 'three posters' } });
    const order = async (key: string, cents: number) => {
      const job = await db.generationJob.create({
        data: { workspaceId: ws, taskId: task.id, kind: 'IMAGE', provider: 'simulated', idempotencyKey: key, prompt: key, params: {}, quoteCents: cents },
      });
      await db.$transaction((tx) => insertHold(tx, { workspaceId: ws, taskId: task.id, jobId: job.id, amountCents: cents, reason: 'quote' }));
      return job.id;
    };
    const settle = (jobId: string, kind: 'CHARGE' | 'RELEASE', cents: number) =>
      db.$transaction((tx) => insertSettlement(tx, { workspaceId: ws, taskId: task.id, jobId, kind, amountCents: cents, reason: kind.toLowerCase() }));

    const charged = await order('a', 40);
    const released = await order('b', 4);
    const open = await order('c', 12);
    await settle(charged, 'CHARGE', 40);
    await settle(released, 'RELEASE', 4);

    const query = async () => (await gqlOk(t.url, t.a.ownerToken, LedgerDays, { id: toGlobalId('Workspace', ws) })).workspace.ledgerByDay[0]!;
    let today = await query();
    assert.equal(today.heldCents, 56, 'every hold placed today');
    assert.equal(today.chargedCents, 40);
    assert.equal(today.releasedCents, 4);
    assert.equal(today.onHoldCents, 12, 'only the order still running is on hold');

    await settle(open, 'CHARGE', 12);
    today = await query();
    assert.equal(today.onHoldCents, 0, 'every job settled: nothing on hold');
    assert.equal(today.chargedCents, 52);
    assert.equal(today.heldCents, today.chargedCents + today.releasedCents);
  });
});
