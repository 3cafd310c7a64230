import { builder } from '../builder.ts';
import { TaskForkPointRef, TaskRef } from '../refs.ts';

builder.objectType(TaskForkPointRef, {
  description:
    'Where a fork came from: the task and the step it goes on from in a different direction. Its history (Task.events, taskEvents) is that task\'s events up to `seq`, shared, then its own.',
  fields: (t) => ({
    task: t.field({
      type: TaskRef,
      nullable: true,
      description: 'The task it was forked from (null if that task is gone).',
      resolve: (p, _a, ctx) => (p.taskId ? ctx.loaders.task.load(p.taskId) : null),
    }),
    step: t.exposeInt('atStep', { description: "The step it goes on from: its 1-based position in that task's checklist. The steps before it are that task's, with their results." }),
    stepTitle: t.exposeString('stepTitle', { description: 'That step\'s title.' }),
    seq: t.exposeInt('atSeq', { description: "The last event of that task the fork shares; the fork's own events start at seq + 1." }),
    edit: t.exposeString('edit', { description: 'The changed instruction the fork goes on with.' }),
    pickLabel: t.exposeString('pickLabel', { nullable: true, description: 'The different pick made at the step, when it was a pick among candidates.' }),
    instead: t.exposeString('instead', { nullable: true, description: 'What that task had picked there, when the fork picked differently.' }),
  }),
});
