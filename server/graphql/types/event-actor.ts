import { builder } from '../builder.ts';
import { globalId } from '../ids.ts';
import { ActorKindEnum } from '../enums/actor-kind.ts';
import { EventActorRef, UserRef } from '../refs.ts';

builder.objectType(EventActorRef, {
  description: 'Who wrote an event.',
  fields: (t) => ({
    kind: t.field({ type: ActorKindEnum, description: 'A person, the agent or the system.', resolve: (a) => a.kind }),
    id: t.id({
      nullable: true,
      description: "The person's global id (User.id) when a person wrote it; null for the agent and the system.",
      resolve: (a) => (a.kind === 'USER' && a.id ? globalId('User', a.id) : null),
    }),
    user: t.field({
      type: UserRef,
      nullable: true,
      description: 'The person, when a person wrote it.',
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
