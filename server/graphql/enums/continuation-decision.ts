import { builder } from '../builder.ts';

// domain/continuation.ts decides after every turn; the log keeps the decision.
export const ContinuationDecisionEnum = builder.enumType('ContinuationDecision', {
  description: 'What the runtime decided after a turn or a finished generation.',
  values: {
    NEXT: { description: 'Go on with the next turn.' },
    COMPLETE: { description: 'The work is done.' },
    SUSPEND: { description: 'Wait (for a generation or a person) without holding a worker.' },
    CARD: { description: 'Ask the person with a card.' },
    STOP: { description: 'Stop: paused or failed.' },
  } as const,
});
