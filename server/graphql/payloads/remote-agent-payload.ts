import type { RemoteAgentRow } from '../../services/a2a/remote-agents.ts';
import { builder } from '../builder.ts';
import { RemoteAgentRef } from '../refs.ts';

export const RemoteAgentPayload = builder.objectRef<{ remoteAgent: RemoteAgentRow }>('RemoteAgentPayload').implement({
  description: 'A remote agent after a change.',
  fields: (t) => ({ remoteAgent: t.field({ type: RemoteAgentRef, description: 'The agent: as registered, or as it was before it was removed.', resolve: (p) => p.remoteAgent }) }),
});
