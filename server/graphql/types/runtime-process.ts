import { builder } from '../builder.ts';
import { RuntimeProcessRef } from '../refs.ts';

builder.objectType(RuntimeProcessRef, {
  description: 'A process of the product (API or worker) and its heartbeat.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'host:pid:suffix; the same id is on the turns it claims (TURN_STARTED.workerId), the events it writes (TaskEvent.actor.workerId) and the jobs it orders.' }),
    kind: t.exposeString('kind', { description: 'API or WORKER.' }),
    hostname: t.exposeString('hostname'),
    pid: t.exposeInt('pid'),
    concurrency: t.exposeInt('concurrency'),
    running: t.exposeInt('running', { description: 'Turns it was running at its last heartbeat.' }),
    alive: t.exposeBoolean('alive', { description: 'Beat within the last three heartbeat intervals and not stopped.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    readyAt: t.expose('readyAt', { type: 'DateTime', nullable: true }),
    lastBeatAt: t.expose('lastBeatAt', { type: 'DateTime' }),
    stoppedAt: t.expose('stoppedAt', { type: 'DateTime', nullable: true }),
  }),
});
