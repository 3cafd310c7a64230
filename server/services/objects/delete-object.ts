// Deleting an object is irreversible for the user, so it always needs a person's confirmation:
// `requestDeleteObject` only files an IRREVERSIBLE approval (one per object version: asking twice
// returns the same approval). When a person approves, `resolveApproval` runs
// `deleteObjectOnApproval` in the same transaction as the decision; it soft-deletes (the history
// stays, the object becomes read-only) and is idempotent.
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import type { Deps } from '../deps.ts';
import { conflict, ErrorReason } from '../../errors.ts';
import type { ApprovedActionHandler } from '../approvals/action-handler.ts';
import { requestApproval } from '../../store/approvals/request-approval.ts';
import { textsFor } from '../../domain/replies/texts.ts';
import { objectInWorkspace } from '../../store/object-exists.ts';
import { latestLanguageOf } from '../../store/person-language.ts';
import { appendFeed, lockObject } from '../../store/objects/store.ts';
import { workspaceOf } from './write-object.ts';

export async function requestDeleteObject(deps: Deps, viewer: Viewer, objectId: string) {
  const workspaceId = await workspaceOf(deps, viewer, objectId, 'write');
  // No task here: the card speaks the language the person writes in.
  const t = textsFor(await latestLanguageOf(deps.prisma, workspaceId, viewer.userId));
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    const obj = await lockObject(tx, workspaceId, objectId);
    if (obj.deletedAt) throw conflict('The object is already deleted', { reason: ErrorReason.OBJECT_DELETED, objectId, currentVersion: obj.currentVersion });
    const { approval } = await requestApproval(tx, emit, {
      workspaceId,
      taskId: null,
      kind: 'IRREVERSIBLE',
      requestKey: `delete-object:${obj.id}:${obj.currentVersion}`,
      title: t.deleteObjectTitle(obj.kind, obj.name),
      reasons: [{ code: 'IRREVERSIBLE', message: t.deleteObjectReason }],
      quoteCents: null,
      action: { type: 'DELETE_OBJECT', objectId: obj.id, version: obj.currentVersion },
      requestedBy: { kind: 'USER', id: viewer.userId },
    });
    return { approval, object: obj };
  });
  return value;
}

/** The approved action (registered as approvedActionHandlers.DELETE_OBJECT). */
export const deleteObjectOnApproval: ApprovedActionHandler = async (action, ctx) => {
  const objectId = String(action.objectId ?? '');
  const rows = await objectInWorkspace(ctx.tx, ctx.approval.workspaceId, objectId);
  if (!rows[0]) return { deleted: false, reason: 'the object no longer exists' };
  const obj = await lockObject(ctx.tx, ctx.approval.workspaceId, objectId);
  if (obj.deletedAt) return { deleted: true, objectId, alreadyDeleted: true };
  await ctx.tx.workspaceObject.update({ where: { id: obj.id }, data: { deletedAt: new Date(), deletedById: ctx.userId } });
  await appendFeed(ctx.tx, ctx.emit, obj.workspaceId, obj.id, obj.currentVersion, 'DELETED');
  return { deleted: true, objectId, version: obj.currentVersion };
};
