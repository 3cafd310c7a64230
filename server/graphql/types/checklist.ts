import { builder } from '../builder.ts';
import { ChecklistItemRef, ChecklistRef } from '../refs.ts';

builder.objectType(ChecklistRef, {
  description: "The task's execution checklist: structured, versioned state, not prose.",
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'Its version: pass it as EditChecklistInput.baseVersion.' }),
    items: t.field({ type: [ChecklistItemRef], description: 'The steps, in order.', resolve: (c) => c.items }),
    done: t.int({ description: 'Steps done or skipped.', resolve: (c) => c.items.filter((i) => i.status === 'DONE' || i.status === 'SKIPPED').length }),
    total: t.int({ description: 'All steps.', resolve: (c) => c.items.length }),
  }),
});
