import { builder } from '../builder.ts';
import { ChecklistItemInput } from './checklist-item-input.ts';

export const EditChecklistInput = builder.inputType('EditChecklistInput', {
  fields: (t) => ({
    taskId: t.id({ required: true }),
    baseVersion: t.int({ required: true, description: 'The version you edited; a stale one is a CONFLICT.' }),
    items: t.field({ type: [ChecklistItemInput], required: true }),
    reason: t.string({ required: false }),
  }),
});
