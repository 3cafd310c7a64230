import { builder } from '../builder.ts';

export const ToolSafetyEnum = builder.enumType('ToolSafety', {
  description: 'What the runtime may do with a call found started after a crash.',
  values: {
    READ_ONLY: { description: 'No effects: run again.' },
    IDEMPOTENT: { description: 'Effects deduplicated by the call\'s key: replayed with the same key.' },
    AT_MOST_ONCE: { description: 'Must not run twice: becomes OUTCOME_UNKNOWN and goes back to the model.' },
  } as const,
});
