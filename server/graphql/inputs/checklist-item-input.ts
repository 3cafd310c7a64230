import { builder } from '../builder.ts';
import { ChecklistItemStatusEnum } from '../enums/checklist-item-status.ts';

export const ChecklistItemInput = builder.inputType('ChecklistItemInput', {
  fields: (t) => ({
    id: t.string({ required: false, description: 'Keep an existing step (its progress and results) by id.' }),
    title: t.string({ required: true }),
    kind: t.string({ required: false }),
    count: t.int({ required: false }),
    status: t.field({ type: ChecklistItemStatusEnum, required: false, description: 'E.g. TODO to re-open a step.' }),
  }),
});
