import { builder } from '../builder.ts';

export const ApprovalDecisionEnum = builder.enumType('ApprovalDecision', {
  description: 'What a person decides on an approval (resolveApproval).',
  values: {
    APPROVE: { description: 'Go ahead. On an approval with options this also needs `choice` (the same as PICK).' },
    REJECT: { description: 'Do not do it; the note may say what to do instead. A QUESTION cannot be rejected: pick an option.' },
    PICK: { description: 'Choose one of the options (`choice`: the option\'s id): a candidate of a pick, or where a message goes for a QUESTION.' },
  } as const,
});
