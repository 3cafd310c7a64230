import { builder } from '../builder.ts';
import { InputPolicyEnum } from '../enums/input-policy.ts';

export const UpdateTaskInput = builder.inputType('UpdateTaskInput', {
  description: "A change of a task's title, summary or input policy (at least one).",
  fields: (t) => ({
    taskId: t.id({ required: true, description: 'The task (Task.id).' }),
    title: t.string({ required: false, description: 'A new title.' }),
    summary: t.string({ required: false, description: 'A new summary.' }),
    inputPolicy: t.field({ type: InputPolicyEnum, required: false, description: 'What messages that arrive while it runs do from now on.' }),
  }),
});
