import type { Approval } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';
import { ApprovalRef } from '../refs.ts';

export const ForgetPayload = builder.objectRef<{ approval: Approval }>('ForgetPayload').implement({
  description: 'The confirmation asked for. Nothing is forgotten until a person approves it (resolveApproval).',
  fields: (t) => ({ approval: t.field({ type: ApprovalRef, description: 'The pending IRREVERSIBLE approval, with the works that contain the value.', resolve: (p) => p.approval }) }),
});
