import { builder } from '../builder.ts';

export const UpdateTaskInput = builder.inputType('UpdateTaskInput', {
  fields: (t) => ({
    taskId: t.id({ required: true }),
    title: t.string({ required: false }),
    summary: t.string({ required: false }),
  }),
});
