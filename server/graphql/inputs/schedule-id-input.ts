import { builder } from '../builder.ts';

export const PauseScheduleInput = builder.inputType('PauseScheduleInput', {
  description: 'The schedule to pause.',
  fields: (t) => ({ scheduleId: t.id({ required: true, description: 'The schedule (Schedule.id).' }) }),
});

export const ResumeScheduleInput = builder.inputType('ResumeScheduleInput', {
  description: 'The schedule to resume.',
  fields: (t) => ({ scheduleId: t.id({ required: true, description: 'The schedule (Schedule.id).' }) }),
});

export const DeleteScheduleInput = builder.inputType('DeleteScheduleInput', {
  description: 'The schedule to delete.',
  fields: (t) => ({ scheduleId: t.id({ required: true, description: 'The schedule (Schedule.id).' }) }),
});
