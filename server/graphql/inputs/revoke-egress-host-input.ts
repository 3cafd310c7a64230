import { builder } from '../builder.ts';

export const RevokeEgressHostInput = builder.inputType('RevokeEgressHostInput', {
  description: 'An allowed host to remove from the list.',
  fields: (t) => ({ entryId: t.id({ required: true, description: 'The entry (EgressHost.id).' }) }),
});
