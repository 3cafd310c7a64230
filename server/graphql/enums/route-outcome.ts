import { builder } from '../builder.ts';

export const RouteOutcomeEnum = builder.enumType('RouteOutcome', {
  values: ['ANSWER', 'LIGHTWEIGHT_TASK', 'EXISTING_TASK', 'NEW_TASK', 'CLARIFY'] as const,
});
