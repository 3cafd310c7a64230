import { builder } from '../builder.ts';

// How a remote A2A agent's task ended (or stopped for input), as its answer reported it.
export const RemoteTaskStateEnum = builder.enumType('RemoteTaskState', {
  description: "How a remote agent's task ended, or that it needs input, as its answer said.",
  values: {
    COMPLETED: { description: 'It did the step.' },
    FAILED: { description: 'It failed.' },
    CANCELED: { description: 'It was cancelled.' },
    REJECTED: { description: 'It refused the step.' },
    INPUT_REQUIRED: { description: 'It asks for more input: answer with another delegation naming its task.' },
    AUTH_REQUIRED: { description: 'It asks for authorisation it does not have.' },
  } as const,
});
