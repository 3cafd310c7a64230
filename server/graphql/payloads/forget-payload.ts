import type { Approval } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';
import { ApprovalRef } from '../refs.ts';

export const ForgetPayload = builder.objectRef<{ approval: Approval }>('ForgetPayload').implement({
  description: 'The confirmation card. Nothing is forgotten until a person approves it (resolveApproval).',
  fields: (t) => ({ approval: t.field({ type: ApprovalRef, resolve: (p) => p.approval }) }),
});
