import { builder } from '../builder.ts';

export const UpdateTaskInput = builder.inputType('UpdateTaskInput', {
  description: "A change of a task's title or summary (at least one).",
  fields: (t) => ({
    taskId: t.id({ required: true, description: 'The task (Task.id).' }),
    title: t.string({ required: false, description: 'A new title.' }),
    summary: t.string({ required: false, description: 'A new summary.' }),
  }),
});
