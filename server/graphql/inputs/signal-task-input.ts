import { builder } from '../builder.ts';
import { TaskSignalEnum } from '../enums/task-signal.ts';

export const SignalTaskInput = builder.inputType('SignalTaskInput', {
  fields: (t) => ({
    taskId: t.id({ required: true }),
    signal: t.field({ type: TaskSignalEnum, required: true }),
    reason: t.string({ required: false, description: 'Why (for PAUSE, RESUME, CANCEL); shown on the timeline.' }),
    text: t.string({ required: false, description: 'The instruction (REVISE) or context (ADD_CONTEXT).' }),
    idempotencyKey: t.string({ required: false, description: 'The same key never applies the signal twice.' }),
  }),
});
