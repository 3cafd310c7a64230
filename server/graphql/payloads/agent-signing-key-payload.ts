import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../builder.ts';

export const AgentSigningKeyPayload = builder.objectRef<{ kid: string; workspaceId: string }>('AgentSigningKeyPayload').implement({
  description: "The workspace's new key for signing its agents' credentials, after a rotation.",
  fields: (t) => ({
    kid: t.exposeString('kid', { description: 'The key id (the `kid` of the JWT header) that signs from now on.' }),
    jwksUrl: t.string({
      description: "Where the workspace's public keys are published (JWKS): the new key, and the previous one until the credentials it signed have expired.",
      resolve: (p, _a, ctx) => `${ctx.publicUrl ?? ''}/.well-known/jwks/${encodeURIComponent(encodeGlobalID('Workspace', p.workspaceId))}.json`,
    }),
  }),
});
