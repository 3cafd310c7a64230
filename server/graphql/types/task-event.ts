import { cursorOfEvent, type EventRow } from '../../services/events/event-view.ts';
import { builder } from '../builder.ts';
import { EventActorRef, PayloadRefRef, TaskEventRef, TaskRef, WithheldRef } from '../refs.ts';
import { openForRequest } from '../sealed.ts';
import type { Context } from '../context.ts';
import { WITHHELD_TEXT } from '../../domain/sealing.ts';

// The live-feed resolvers take the event type from here.
export { TaskEventRef };

const isPrivate = (e: EventRow) => e.redaction === 'PRIVATE';

/** The stored payload (loaded from its reference when large), opened: plaintext, or withheld parts. */
async function openedPayload(e: EventRow, ctx: Context) {
  const raw = e.payloadHash ? await ctx.loaders.payload.load(e.payloadHash) : e.payload;
  return openForRequest(ctx, raw);
}

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
      resolve: async (e, _a, ctx) => (isPrivate(e) ? null : (await openedPayload(e, ctx)).value),
    }),
    withheld: t.field({
      type: WithheldRef,
      nullable: true,
      description: 'Set when parts of the payload are withheld: they relied on a memory that was forgotten. Those strings read as a fixed marker.',
      resolve: async (e, _a, ctx) => {
        if (isPrivate(e)) return null;
        const o = await openedPayload(e, ctx);
        return o.withheld ? { reason: 'FORGOTTEN_MEMORY' as const, message: WITHHELD_TEXT } : null;
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
