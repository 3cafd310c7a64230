import { builder } from '../builder.ts';
import { ChecklistItemInput } from './checklist-item-input.ts';

export const EditChecklistInput = builder.inputType('EditChecklistInput', {
  description: "A new plan for a task's checklist (a change of direction).",
  fields: (t) => ({
    taskId: t.id({ required: true, description: 'The task (Task.id).' }),
    baseVersion: t.int({ required: true, description: 'The version you edited; a stale one is a CONFLICT.' }),
    items: t.field({ type: [ChecklistItemInput], required: true, description: 'The whole checklist, in order. Steps left out are dropped (kept as SKIPPED when they have results).' }),
    reason: t.string({ required: false, description: 'Why it changed; shown on the timeline and to the agent.' }),
  }),
});
