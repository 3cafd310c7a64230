import { builder } from '../builder.ts';
import { ActorKindEnum } from '../enums/actor-kind.ts';
import { AgentPrincipalChangeRef, UserRef } from '../refs.ts';

AgentPrincipalChangeRef.implement({
  description: 'One change of an agent principal (its audit trail): created, renamed, its ceiling widened or narrowed.',
  fields: (t) => ({
    version: t.exposeInt('version', { description: "The agent's version after the change." }),
    change: t.exposeString('change', { description: 'What changed, in one line (a ceiling change lists +added and -removed scopes).' }),
    actorKind: t.field({ type: ActorKindEnum, description: 'Who made it: a person (USER) or Atelier itself (SYSTEM: the main agent\'s creation).', resolve: (c) => c.actorKind }),
    actor: t.field({
      type: UserRef,
      nullable: true,
      description: "The person who made it (null for Atelier's own changes).",
      resolve: (c, _a, ctx) => (c.actorKind === 'USER' && c.actorId ? ctx.loaders.user.load(c.actorId) : null),
    }),
    createdAt: t.field({ type: 'DateTime', description: 'When.', resolve: (c) => c.createdAt }),
  }),
});
