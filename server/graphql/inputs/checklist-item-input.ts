import { builder } from '../builder.ts';
import { ChecklistItemKindEnum } from '../enums/checklist-item-kind.ts';
import { ChecklistItemStatusEnum } from '../enums/checklist-item-status.ts';

export const ChecklistItemInput = builder.inputType('ChecklistItemInput', {
  description: 'One step of an edited checklist.',
  fields: (t) => ({
    id: t.string({ required: false, description: 'Keep an existing step (its progress and results) by its id (ChecklistItem.id); omit for a new step.' }),
    title: t.string({ required: true, description: 'What the step is, in a few words.' }),
    kind: t.field({ type: ChecklistItemKindEnum, required: false, description: "What it produces (default: the existing step's kind, or OTHER)." }),
    count: t.int({ required: false, description: 'How many results it needs (default 1).' }),
    status: t.field({ type: ChecklistItemStatusEnum, required: false, description: 'E.g. TODO to re-open a step.' }),
    after: t.stringList({
      required: false,
      description: 'The steps whose results this one uses, by id or title in this list (omit: keep its current ones; []: none). A plan that goes in a circle is refused (BAD_USER_INPUT).',
    }),
  }),
});
