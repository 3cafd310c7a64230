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
    workerId: t.string({
      nullable: true,
      description:
        'The worker process that wrote the event (host:pid:suffix, as in viewer.runtime.processes): set for events written during a turn, ' +
        "a watchdog pass or job reconciliation, null for the API's own writes. Owners of the workspace only (null for others).",
      resolve: (a, _x, ctx) => (a.workerId && a.workspaceId && ctx.viewer.memberships.get(a.workspaceId) === 'OWNER' ? a.workerId : null),
    }),
  }),
});
