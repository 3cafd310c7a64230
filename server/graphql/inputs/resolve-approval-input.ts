import { builder } from '../builder.ts';
import { ApprovalDecisionEnum } from '../enums/approval-decision.ts';

export const ResolveApprovalInput = builder.inputType('ResolveApprovalInput', {
  description: 'A decision on an approval.',
  fields: (t) => ({
    approvalId: t.id({ required: true, description: 'The approval (Approval.id; a QUESTION from Message.approval or SendMessagePayload.approval).' }),
    decision: t.field({ type: ApprovalDecisionEnum, required: true, description: 'APPROVE, REJECT, or PICK one of the options (with choice).' }),
    idempotencyKey: t.string({ required: true, description: 'Retrying with the same key returns the recorded decision.' }),
    note: t.string({ required: false, description: 'What you want instead, or anything the task should know with the decision.' }),
    choice: t.string({ required: false, description: "For an approval with options: the id of the option chosen (needed for PICK, and to APPROVE a pick)." }),
  }),
});
