import { builder } from '../builder.ts';

export const ApprovalDecisionEnum = builder.enumType('ApprovalDecision', { values: ['APPROVE', 'REJECT'] as const });
