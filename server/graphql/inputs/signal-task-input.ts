import { builder } from '../builder.ts';
import { InputPolicyEnum } from '../enums/input-policy.ts';
import { TaskSignalEnum } from '../enums/task-signal.ts';

export const SignalTaskInput = builder.inputType('SignalTaskInput', {
  description: 'A signal to a task.',
  fields: (t) => ({
    taskId: t.id({ required: true, description: 'The task (Task.id).' }),
    signal: t.field({ type: TaskSignalEnum, required: true, description: 'What to do.' }),
    reason: t.string({ required: false, description: 'Why (for PAUSE, RESUME, CANCEL); shown on the timeline.' }),
    text: t.string({ required: false, description: 'The instruction (REVISE) or context (ADD_CONTEXT); required for those two.' }),
    idempotencyKey: t.string({ required: false, description: 'The same key never applies the signal twice.' }),
    inputPolicy: t.field({ type: InputPolicyEnum, required: false, description: "For REVISE and ADD_CONTEXT: what the instruction does if the task is running; absent: the task's own inputPolicy." }),
  }),
});
