import { builder } from '../builder.ts';

export const CancelFollowUpInput = builder.inputType('CancelFollowUpInput', {
  description: 'The follow-up to cancel.',
  fields: (t) => ({ followUpId: t.id({ required: true, description: 'The follow-up (FollowUp.id).' }) }),
});
