import type { AgentPrincipalView } from '../../services/agents/list-agents.ts';
import { builder } from '../builder.ts';
import { AgentPrincipalRef } from '../refs.ts';

export const AgentPrincipalPayload = builder.objectRef<{ agent: AgentPrincipalView }>('AgentPrincipalPayload').implement({
  description: 'An agent principal after a change.',
  fields: (t) => ({ agent: t.field({ type: AgentPrincipalRef, description: 'The agent as it is now.', resolve: (p) => p.agent }) }),
});
