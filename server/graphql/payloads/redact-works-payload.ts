import type { Approval } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';
import { ApprovalRef } from '../refs.ts';

export const RedactWorksPayload = builder.objectRef<{ approval: Approval }>('RedactWorksPayload').implement({
  description: 'The forget card with the choice recorded: its works show what was removed (works).',
  fields: (t) => ({ approval: t.field({ type: ApprovalRef, resolve: (p) => p.approval }) }),
});
