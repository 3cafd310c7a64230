import { builder } from '../builder.ts';

export const ChecklistItemStatusEnum = builder.enumType('ChecklistItemStatus', { values: ['TODO', 'IN_PROGRESS', 'DONE', 'SKIPPED', 'BLOCKED'] as const });
