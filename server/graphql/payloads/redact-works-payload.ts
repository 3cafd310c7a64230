import type { Approval } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';
import { ApprovalRef } from '../refs.ts';

export const RedactWorksPayload = builder.objectRef<{ approval: Approval }>('RedactWorksPayload').implement({
  description: 'The forgetting with the choice recorded: its works show what was removed.',
  fields: (t) => ({ approval: t.field({ type: ApprovalRef, description: 'The approved forgetting; works[].status says which were redacted and which kept.', resolve: (p) => p.approval }) }),
});
