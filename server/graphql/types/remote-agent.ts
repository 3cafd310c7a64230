import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../builder.ts';
import { RemoteAgentRef } from '../refs.ts';

builder.objectType(RemoteAgentRef, {
  description:
    "A remote A2A agent the workspace's agent may hand a step to (the tool delegate_to_agent). Its agent card must be signed by the key registered here; an unsigned card, or one signed by any other key, is refused before anything is sent.",
  fields: (t) => ({
    id: t.id({ description: 'The registration; pass it to removeRemoteAgent.', resolve: (a) => encodeGlobalID('RemoteAgent', a.id) }),
    name: t.exposeString('name', { description: 'How the agent names it when it delegates (a slug).' }),
    url: t.exposeString('url', { description: 'Its base URL; the card is read from <url>/.well-known/agent-card.json.' }),
    jwksUrl: t.exposeString('jwksUrl', { nullable: true, description: 'The JWKS its card must verify against, when registered by URL.' }),
    publicJwk: t.field({ type: 'JSON', nullable: true, description: 'The one public key its card must verify against, when registered by key.', resolve: (a) => a.publicJwk ?? null }),
    allowedSkills: t.exposeStringList('allowedSkills', { description: 'The skills of its card a delegation may ask for (empty: any).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was registered.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When its registration last changed.' }),
  }),
});
