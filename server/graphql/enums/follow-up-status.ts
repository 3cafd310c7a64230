import { builder } from '../builder.ts';

export const FollowUpStatusEnum = builder.enumType('FollowUpStatus', {
  description: 'Where a follow-up of the agent is. Every status but PENDING is final.',
  values: {
    PENDING: { description: 'Waiting to wake the task at wakeAt; a person may cancel it.' },
    FIRED: { description: 'It came due: its reminder reached the task (firedAt says when).' },
    CANCELLED: { description: 'It will not wake the task: a person cancelled it, the task ended, or follow-ups were turned off (cancelledAt says when).' },
  } as const,
});
