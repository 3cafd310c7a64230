import { builder } from '../builder.ts';
import { PlanImpactRef, StaleStepRef } from '../refs.ts';

builder.objectType(StaleStepRef, {
  description: 'A step whose results were made from a step that would change: re-made if the person agrees.',
  fields: (t) => ({
    step: t.exposeString('id', { description: 'The step (its ChecklistItem.id).' }),
    title: t.exposeString('title', { description: 'What the step is.' }),
    because: t.exposeString('because', { description: 'The title of the changed step it uses (directly or through other steps).' }),
    estimateCents: t.exposeInt('estimateCents', { description: 'What re-making it is expected to cost, in US cents.' }),
  }),
});

builder.objectType(PlanImpactRef, {
  description: "What changing some steps of a plan would do to the rest, computed from the plan's graph before anything is spent.",
  fields: (t) => ({
    stale: t.field({ type: [StaleStepRef], description: 'Finished or running steps made from what changes: their results would be made again.', resolve: (i) => i.stale }),
    waiting: t.stringList({ description: 'Steps after the change that have not started: they simply use the new input.', resolve: (i) => i.waiting }),
    stillValid: t.stringList({ description: 'Finished steps on other branches: their results stay as they are.', resolve: (i) => i.stillValid }),
    costCents: t.exposeInt('costCents', { description: 'What re-making the stale steps would cost, in US cents.' }),
  }),
});
