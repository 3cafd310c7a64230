// The shared workspace, permissions: viewers and read-only tokens cannot write, other workspaces see
// nothing, and deletion goes through an approval by a person.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { transactWithEvents } from '../server/channel/unit-of-work.ts';
import { approvedActionHandlers } from '../server/services/approvals/actions.ts';
import { graphql } from './gql/index.ts';
import { gql, gqlOk } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { CreateObject, DeleteObject, EditDocument, ObjectNode, UpdateObject } from './helpers/object-documents.ts';
import { createDoc, t, useObjectsApp, versionsOf, wsA } from './helpers/objects.ts';

useObjectsApp();

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
