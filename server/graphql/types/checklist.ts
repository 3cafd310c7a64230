import { builder } from '../builder.ts';
import { ChecklistItemRef, ChecklistRef } from '../refs.ts';

builder.objectType(ChecklistRef, {
  description: "The task's execution checklist: structured, versioned state, not prose.",
  fields: (t) => ({
    version: t.exposeInt('version'),
    items: t.field({ type: [ChecklistItemRef], resolve: (c) => c.items }),
    done: t.int({ resolve: (c) => c.items.filter((i) => i.status === 'DONE' || i.status === 'SKIPPED').length }),
    total: t.int({ resolve: (c) => c.items.length }),
  }),
});
