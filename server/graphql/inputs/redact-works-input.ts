import { builder } from '../builder.ts';

export const RedactWorksInput = builder.inputType('RedactWorksInput', {
  description: 'Which works of an approved forgetting to remove the value from.',
  fields: (t) => ({
    approvalId: t.id({ required: true, description: 'The approved forgetting (its Approval.id).' }),
    objectIds: t.idList({ required: true, description: 'The listed works to remove the value from (WorkspaceObject ids); an empty list leaves them all as they are.' }),
    idempotencyKey: t.string({ required: true, description: 'Retrying with the same key returns the recorded result.' }),
  }),
});
