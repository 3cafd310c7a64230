import { builder } from '../builder.ts';

export const CreateTaskInput = builder.inputType('CreateTaskInput', {
  fields: (t) => ({
    workspaceId: t.id({ required: true }),
    title: t.string({ required: true }),
    goal: t.string({ required: false }),
    idempotencyKey: t.string({ required: false, description: 'Retrying with the same key returns the same task.' }),
  }),
});
