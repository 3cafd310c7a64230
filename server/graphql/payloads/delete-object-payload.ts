import { encodeGlobalID } from '@pothos/plugin-relay';
import { getObjectNow } from '../../services/objects/load-objects.ts';
import { builder } from '../builder.ts';
import { WorkspaceObjectRef } from '../refs.ts';

export const DeleteObjectPayload = builder
  .objectRef<{ approval: { id: string; status: string; title: string }; object: { id: string } }>('DeleteObjectPayload')
  .implement({
    description: 'Deletion is irreversible, so it waits for a person to approve it; the object is deleted when the approval is approved.',
    fields: (t) => ({
      approvalId: t.id({ resolve: (p) => encodeGlobalID('Approval', p.approval.id) }),
      approvalStatus: t.string({ resolve: (p) => p.approval.status }),
      title: t.string({ resolve: (p) => p.approval.title }),
      object: t.field({
        type: WorkspaceObjectRef,
        resolve: (p, _a, ctx) => getObjectNow(ctx.deps, ctx.viewer, p.object.id),
      }),
    }),
  });
