import { builder } from '../builder.ts';

export const CardKindEnum = builder.enumType('CardKind', {
  description: 'What a question of the main thread asks (Card is the former name of a QUESTION approval).',
  values: {
    CLARIFY: { description: 'Which task the message is for, or a new task.' },
    WHICH_TASK: { description: 'Which task a command (stop, pause, resume) is for.' },
    CONFIRM_CANCEL: { description: 'Whether to stop a task that would abandon paid work.' },
  } as const,
});
