import { builder } from '../builder.ts';
import { InputPolicyEnum } from '../enums/input-policy.ts';

export const CreateTaskInput = builder.inputType('CreateTaskInput', {
  description: 'A new task. It starts at once: its first turn is queued with it, as a run starts when it is created.',
  fields: (t) => ({
    workspaceId: t.id({ required: true, description: 'The workspace it belongs to.' }),
    title: t.string({ required: true, description: 'What to call it (1–200 characters). With no goal, the title is also what the agent is asked to do.' }),
    goal: t.string({ required: false, description: 'What the work is for, in your words (the request the agent plans from). Defaults to the title.' }),
    idempotencyKey: t.string({ required: false, description: 'Retrying with the same key returns the same task.' }),
    inputPolicy: t.field({ type: InputPolicyEnum, required: false, description: 'What messages that arrive while it runs do (default QUEUE).' }),
  }),
});
