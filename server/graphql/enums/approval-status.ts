import { builder } from '../builder.ts';

export const ApprovalStatusEnum = builder.enumType('ApprovalStatus', { values: ['PENDING', 'APPROVED', 'REJECTED', 'CANCELLED'] as const });
