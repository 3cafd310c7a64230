import { cursorOfEvent, type EventRow } from '../../services/events/event-view.ts';
import { builder } from '../builder.ts';
import { EventActorRef, PayloadRefRef, TaskEventRef, TaskRef } from '../refs.ts';

// The live-feed resolvers take the event type from here.
export { TaskEventRef };

const isPrivate = (e: EventRow) => e.redaction === 'PRIVATE';

builder.objectType(TaskEventRef, {
  description:
    'One entry of a task\'s append-only log. seq is gap-free per task (1, 2, 3, …). ' +
    'Private events keep their place in the sequence but arrive redacted: no payload.',
  fields: (t) => ({
    id: t.globalID({ resolve: (e) => ({ type: 'TaskEvent', id: `${e.taskId}:${e.seq}` }) }),
    seq: t.exposeInt('seq'),
    cursor: t.string({
      description: 'Opaque workspace cursor: pass to workspaceEvents(after:) to resume after this event.',
      resolve: (e) => cursorOfEvent(e),
    }),
    type: t.exposeString('type'),
    occurredAt: t.expose('occurredAt', { type: 'DateTime' }),
    actor: t.field({ type: EventActorRef, resolve: (e) => ({ kind: e.actorKind, id: e.actorId, workerId: e.workerId, workspaceId: e.workspaceId }) }),
    redacted: t.boolean({ resolve: isPrivate }),
    payloadSchema: t.string({ resolve: (e) => e.payloadSchema }),
    payloadSize: t.int({ resolve: (e) => e.payloadSize }),
    payload: t.field({
      type: 'JSON',
      nullable: true,
      description: 'The payload (large ones are loaded from their reference). Null when redacted.',
      resolve: (e, _a, ctx) => {
        if (isPrivate(e)) return null;
        if (e.payloadHash) return ctx.loaders.payload.load(e.payloadHash);
        return e.payload;
      },
    }),
    payloadRef: t.field({
      type: PayloadRefRef,
      nullable: true,
      description: 'Set when the payload is stored by reference.',
      resolve: (e) => (e.payloadHash && !isPrivate(e) ? { hash: e.payloadHash, size: e.payloadSize, schema: e.payloadSchema } : null),
    }),
    task: t.field({
      type: TaskRef,
      resolve: (e, _a, ctx) => ctx.loaders.task.load(e.taskId).then((x) => x!),
    }),
  }),
});
