import { builder } from '../builder.ts';

export const ApprovalStatusEnum = builder.enumType('ApprovalStatus', {
  description: 'Where an approval is. Every status but PENDING is final.',
  values: {
    PENDING: { description: 'Waiting for a person.' },
    APPROVED: { description: 'A person approved it (with the choice, for an approval with options; a QUESTION answered).' },
    REJECTED: { description: 'A person declined it.' },
    CANCELLED: { description: 'No longer needed (the task ended, or the limits changed so it needs no confirmation); the note says why.' },
    SUPERSEDED: {
      description:
        'Set aside by an instruction of the user that came while it waited (a revision, added context or a message to the task); the note says which. The task reads the instruction and asks again with a new approval if it still needs to. Final: resolving it is CONFLICT (APPROVAL_SUPERSEDED).',
    },
  } as const,
});
