import type { Approval } from '../../db/generated/client.ts';
import { getObjectNow } from '../../services/objects/load-objects.ts';
import { builder } from '../builder.ts';
import { ApprovalStatusEnum } from '../enums/approval-status.ts';
import { globalId } from '../ids.ts';
import { ApprovalRef, WorkspaceObjectRef } from '../refs.ts';

export const DeleteObjectPayload = builder.objectRef<{ approval: Approval; object: { id: string } }>('DeleteObjectPayload').implement({
  description: 'Deletion is irreversible, so it waits for a person to approve it; the object is deleted when the approval is approved.',
  fields: (t) => ({
    approval: t.field({ type: ApprovalRef, description: 'The pending IRREVERSIBLE approval; approving it (resolveApproval) deletes the object.', resolve: (p) => p.approval }),
    approvalId: t.id({ description: "The approval's global id.", deprecationReason: 'Use approval { id }.', resolve: (p) => globalId('Approval', p.approval.id) }),
    approvalStatus: t.field({ type: ApprovalStatusEnum, description: "The approval's status.", deprecationReason: 'Use approval { status }.', resolve: (p) => p.approval.status }),
    title: t.string({ description: "The approval's title.", deprecationReason: 'Use approval { title }.', resolve: (p) => p.approval.title }),
    object: t.field({
      type: WorkspaceObjectRef,
      description: 'The object to be deleted (as it is now: deleted only once approved).',
      resolve: (p, _a, ctx) => getObjectNow(ctx.deps, ctx.viewer, p.object.id),
    }),
  }),
});
