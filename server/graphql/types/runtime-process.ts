import { builder } from '../builder.ts';
import { ProcessKindEnum } from '../enums/process-kind.ts';
import { RuntimeProcessRef } from '../refs.ts';

builder.objectType(RuntimeProcessRef, {
  description: 'A process of the product (API or worker) and its heartbeat.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'host:pid:suffix; the same id is on the turns it claims (TURN_STARTED.workerId), the events it writes (TaskEvent.actor.workerId) and the jobs it orders.' }),
    kind: t.field({ type: ProcessKindEnum, description: 'What it does.', resolve: (p) => p.kind as 'API' | 'WORKER' }),
    hostname: t.exposeString('hostname', { description: 'The machine it runs on.' }),
    pid: t.exposeInt('pid', { description: 'Its process id on that machine.' }),
    concurrency: t.exposeInt('concurrency', { description: 'Turns it runs at once (a worker); 0 for an API.' }),
    running: t.exposeInt('running', { description: 'Turns it was running at its last heartbeat.' }),
    alive: t.exposeBoolean('alive', { description: 'Beat within the last three heartbeat intervals and not stopped.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', description: 'When it started.' }),
    readyAt: t.expose('readyAt', { type: 'DateTime', nullable: true, description: 'When it was ready to serve (null while starting).' }),
    lastBeatAt: t.expose('lastBeatAt', { type: 'DateTime', description: 'Its last heartbeat.' }),
    stoppedAt: t.expose('stoppedAt', { type: 'DateTime', nullable: true, description: 'When it stopped cleanly (null while it runs, or if it died).' }),
  }),
});
