import type { Approval } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';
import { ApprovalRef } from '../refs.ts';

export const ApprovalPayload = builder.objectRef<{ approval: Approval }>('ApprovalPayload').implement({
  fields: (t) => ({ approval: t.field({ type: ApprovalRef, resolve: (p) => p.approval }) }),
});
