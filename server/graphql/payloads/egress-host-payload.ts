import type { EgressHostRow } from '../../services/egress/manage-hosts.ts';
import { builder } from '../builder.ts';
import { EgressHostRef } from '../refs.ts';

export const EgressHostPayload = builder.objectRef<{ entry: EgressHostRow }>('EgressHostPayload').implement({
  description: 'An allowed host after a change.',
  fields: (t) => ({ entry: t.field({ type: EgressHostRef, description: 'The entry: the one added (or already listed), or the one revoked.', resolve: (p) => p.entry }) }),
});
