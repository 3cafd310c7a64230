import { builder } from '../builder.ts';

export const InboxSignalEnum = builder.enumType('InboxSignal', {
  description: "A signal in a task's inbox: one a person sent (signalTask), a generation's result, or the agent's own follow-up coming due.",
  values: {
    PAUSE: { description: 'Pause after the current step.' },
    RESUME: { description: 'Go on after a pause.' },
    CANCEL: { description: 'End the task.' },
    REVISE: { description: 'A change of direction (text).' },
    ADD_CONTEXT: { description: 'More to know (text).' },
    JOB_RESULT: { description: 'A generation finished; its result reaches the next step.' },
    FOLLOW_UP: { description: 'A follow-up the agent asked for (follow_up_at) came due; its reminder reaches the next step.' },
  } as const,
});
