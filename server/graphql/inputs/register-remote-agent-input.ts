import { builder } from '../builder.ts';

export const RegisterRemoteAgentInput = builder.inputType('RegisterRemoteAgentInput', {
  description: 'A remote A2A agent to register for delegation, with the key its agent card must be signed with (jwksUrl or publicJwk).',
  fields: (t) => ({
    workspaceId: t.id({ required: true, description: 'The workspace.' }),
    name: t.string({ required: true, description: 'How the agent names it: lowercase letters, digits, _ and -, starting with a letter, at most 40. Registering a name again updates it.' }),
    url: t.string({ required: true, description: 'Its base URL (https; http only for a loopback host). Its host goes on the egress list.' }),
    jwksUrl: t.string({ required: false, description: 'A JWKS (https) holding the key its card is signed with.' }),
    publicJwk: t.field({ type: 'JSON', required: false, description: 'Or the one public key (an EC P-256 JWK, without "d") its card is signed with.' }),
    allowedSkills: t.stringList({ required: false, description: 'The skills of its card a delegation may ask for (at most 50; none: any).' }),
  }),
});

export const RemoveRemoteAgentInput = builder.inputType('RemoveRemoteAgentInput', {
  description: 'A registered remote agent to remove.',
  fields: (t) => ({ remoteAgentId: t.id({ required: true, description: 'The registration (RemoteAgent.id).' }) }),
});
