import type { ApprovalOrQuestion } from '../../services/approvals/load-approvals.ts';
import { builder } from '../builder.ts';
import { ApprovalRef } from '../refs.ts';

export const ApprovalPayload = builder.objectRef<{ approval: ApprovalOrQuestion }>('ApprovalPayload').implement({
  description: 'An approval after a decision.',
  fields: (t) => ({ approval: t.field({ type: ApprovalRef, description: 'The approval, decided (status, choice, note, outcome).', resolve: (p) => p.approval }) }),
});
