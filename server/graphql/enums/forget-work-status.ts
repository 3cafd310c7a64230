import { builder } from '../builder.ts';

export const ForgetWorkStatusEnum = builder.enumType('ForgetWorkStatus', {
  description: 'What became of a work a forgetting listed.',
  values: {
    OFFERED: { description: 'The person has not chosen yet.' },
    REDACTED: { description: 'Chosen: the value was removed in a new version (redactedInVersion).' },
    KEPT: { description: 'Not chosen: the work stays as it is.' },
  } as const,
});
