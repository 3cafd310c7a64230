import { builder } from '../builder.ts';
import { WorkspaceCostSummaryRef } from '../refs.ts';

builder.objectType(WorkspaceCostSummaryRef, {
  description: "The workspace's spending on model calls and generations, and the cost per completed task.",
  fields: (t) => ({
    modelCents: t.exposeFloat('modelCents'),
    generationCents: t.exposeFloat('generationCents'),
    totalCents: t.exposeFloat('totalCents'),
    modelCalls: t.exposeInt('modelCalls'),
    tasks: t.exposeInt('tasks'),
    completedTasks: t.exposeInt('completedTasks'),
    centsPerCompletedTask: t.exposeFloat('centsPerCompletedTask', { description: 'All spending on completed tasks (failed and retried calls included) divided by their number.' }),
  }),
});
