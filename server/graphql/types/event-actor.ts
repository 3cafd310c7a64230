import { builder } from '../builder.ts';
import { ActorKindEnum } from '../enums/actor-kind.ts';
import { EventActorRef, UserRef } from '../refs.ts';

builder.objectType(EventActorRef, {
  fields: (t) => ({
    kind: t.field({ type: ActorKindEnum, resolve: (a) => a.kind }),
    id: t.exposeString('id', { nullable: true }),
    user: t.field({
      type: UserRef,
      nullable: true,
      resolve: (a, _x, ctx) => (a.kind === 'USER' && a.id ? ctx.loaders.user.load(a.id) : null),
    }),
  }),
});
