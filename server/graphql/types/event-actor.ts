import { builder } from '../builder.ts';
import { globalId } from '../ids.ts';
import { publicRun } from '../public-ids.ts';
import { ActorKindEnum } from '../enums/actor-kind.ts';
import { EventActorRef, EventAgentRef, UserRef } from '../refs.ts';

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
    agent: t.field({
      type: EventAgentRef,
      nullable: true,
      description: 'The agent principal that acted, with the version it acted with, when the agent wrote it during a run (null otherwise, and for events written before agents were principals).',
      resolve: (a) => (a.kind === 'AGENT' && a.id && a.version != null ? { id: a.id, version: a.version } : null),
    }),
    run: t.string({
      nullable: true,
      description: 'The run the agent acted in (one turn held by one worker: a takeover is a new run), as an opaque id: the same run reads the same on every event and card. Null unless the agent wrote it during a run.',
      resolve: (a) => (a.kind === 'AGENT' && a.run ? publicRun(a.run) : null),
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
