import { builder } from '../builder.ts';
import { globalId } from '../ids.ts';
import { MemoryUseRef, TaskRef } from '../refs.ts';

builder.objectType(MemoryUseRef, {
  description: "A worker step whose context included this memory (as a relevant memory or a profile entry).",
  fields: (t) => ({
    task: t.field({ type: TaskRef, nullable: true, description: 'The task whose step it was.', resolve: (u, _a, ctx) => ctx.loaders.task.load(u.taskId) }),
    stepOrdinal: t.exposeInt('stepOrdinal', { description: "The step's position in the task (0-based, over all turns)." }),
    stepId: t.id({ nullable: true, description: "The step's global id (Step.id), once committed.", resolve: (u) => (u.stepId ? globalId('Step', u.stepId) : null) }),
    turnNumber: t.exposeInt('turnNumber', { nullable: true, description: 'The number of the turn the step was in.' }),
    stepIndex: t.exposeInt('stepIndex', { nullable: true, description: 'The step index within its turn.' }),
    versionNumber: t.exposeInt('versionNumber', { description: 'Which version of the memory was used.' }),
    usedAt: t.expose('usedAt', { type: 'DateTime', description: 'When the step used it.' }),
  }),
});
