import { builder } from '../builder.ts';
import { WorkspaceCostSummaryRef } from '../refs.ts';

builder.objectType(WorkspaceCostSummaryRef, {
  description: "The workspace's spending on model calls and generations, and the cost per completed task.",
  fields: (t) => ({
    modelCents: t.exposeFloat('modelCents', { description: 'Model calls, in US cents.' }),
    generationCents: t.exposeFloat('generationCents', { description: 'Generations charged, in US cents.' }),
    totalCents: t.exposeFloat('totalCents', { description: 'Both, in US cents.' }),
    modelCalls: t.exposeInt('modelCalls', { description: 'Model calls made (failed and retried ones included).' }),
    tasks: t.exposeInt('tasks', { description: 'Tasks of the workspace.' }),
    completedTasks: t.exposeInt('completedTasks', { description: 'Of those, the completed ones.' }),
    centsPerCompletedTask: t.exposeFloat('centsPerCompletedTask', { description: 'All spending on completed tasks (failed and retried calls included) divided by their number.' }),
  }),
});
