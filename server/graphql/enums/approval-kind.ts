import { builder } from '../builder.ts';

export const ApprovalKindEnum = builder.enumType('ApprovalKind', {
  description:
    'PAID_ACTION: a priced action above a threshold. PLAN: a plan with its budget. IRREVERSIBLE: deleting or forgetting. CHECKPOINT: confirm, choose among candidates, or adjust.',
  values: ['PAID_ACTION', 'PLAN', 'IRREVERSIBLE', 'CHECKPOINT'] as const,
});
