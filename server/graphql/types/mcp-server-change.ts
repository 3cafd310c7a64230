import { builder } from '../builder.ts';
import { ActorKindEnum } from '../enums/actor-kind.ts';
import { McpServerChangeRef, UserRef } from '../refs.ts';

McpServerChangeRef.implement({
  description: 'One change of an MCP server (its audit trail): registered, a setting changed, quarantined, a change approved.',
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'The server\'s version after the change.' }),
    change: t.exposeString('change', { description: 'What changed, in one line.' }),
    actorKind: t.field({ type: ActorKindEnum, description: 'Who made it: a person (USER) or Atelier itself (SYSTEM, e.g. a quarantine).', resolve: (c) => c.actorKind }),
    actor: t.field({
      type: UserRef,
      nullable: true,
      description: 'The person who made it (null for Atelier\'s own changes).',
      resolve: (c, _a, ctx) => (c.actorKind === 'USER' && c.actorId ? ctx.loaders.user.load(c.actorId) : null),
    }),
    createdAt: t.field({ type: 'DateTime', description: 'When.', resolve: (c) => c.createdAt }),
  }),
});
