import { builder } from '../builder.ts';

export const CardStatusEnum = builder.enumType('CardStatus', {
  description: 'Whether a question of the main thread was answered (Card is the former name of a QUESTION approval).',
  values: {
    OPEN: { description: 'Not answered yet.' },
    RESOLVED: { description: 'Answered (choice).' },
  } as const,
});
