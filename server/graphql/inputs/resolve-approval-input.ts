import { builder } from '../builder.ts';
import { ApprovalDecisionEnum } from '../enums/approval-decision.ts';

export const ResolveApprovalInput = builder.inputType('ResolveApprovalInput', {
  fields: (t) => ({
    approvalId: t.id({ required: true }),
    decision: t.field({ type: ApprovalDecisionEnum, required: true }),
    idempotencyKey: t.string({ required: true, description: 'Retrying with the same key returns the recorded decision.' }),
    note: t.string({ required: false }),
    choice: t.string({ required: false, description: 'For a card with options: the id of the option chosen.' }),
  }),
});
