import { builder } from '../builder.ts';

export const ForkTaskInput = builder.inputType('ForkTaskInput', {
  description: 'A fork of a task from one of its steps: “try a different direction from here”.',
  fields: (t) => ({
    taskId: t.id({ required: true, description: 'The task to fork (Task.id). It is not changed.' }),
    atStep: t.int({ required: true, description: "The step to go on from: its 1-based position in the task's checklist. Every step before it must be finished; their results are kept." }),
    edit: t.string({ required: true, description: 'What changes from that step on: a different direction, a revised brief (not empty).' }),
    choice: t.string({ required: false, description: "For a step that was a pick among candidates: another option (its id or label); the fork goes on with it without asking again." }),
    idempotencyKey: t.string({ required: false, description: 'Retrying with the same key returns the same fork.' }),
  }),
});
