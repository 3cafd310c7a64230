// The agent principal on an event's actor: who acted, with which version of its rights.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../builder.ts';
import { AgentPrincipalRef, EventAgentRef } from '../refs.ts';

EventAgentRef.implement({
  description: 'The agent principal that wrote an event, as it was when it acted.',
  fields: (t) => ({
    id: t.id({ description: 'The principal\'s global id (AgentPrincipal.id).', resolve: (a) => encodeGlobalID('AgentPrincipal', a.id) }),
    name: t.string({
      nullable: true,
      description: "The principal's name now (null when the viewer cannot see it).",
      resolve: async (a, _x, ctx) => (await ctx.loaders.agentPrincipal.load(a.id))?.name ?? null,
    }),
    version: t.int({ description: "The principal's version when it acted: its ceiling then is in AgentPrincipal.history.", resolve: (a) => a.version ?? 0 }),
    principal: t.field({ type: AgentPrincipalRef, nullable: true, description: 'The principal as it is now.', resolve: (a, _x, ctx) => ctx.loaders.agentPrincipal.load(a.id) }),
  }),
});
