import { encodeGlobalID } from '@pothos/plugin-relay';
import { isEventType, visibilityOf } from '../../domain/event-catalog.ts';
import { cursorOfEvent, type EventRow } from '../../services/events/event-view.ts';
import { builder } from '../builder.ts';
import { EventVisibilityEnum } from '../enums/event-visibility.ts';
import { TaskEventTypeEnum } from '../enums/task-event-type.ts';
import { EventActorRef, PayloadRefRef, TaskEventRef, TaskRef, WithheldRef } from '../refs.ts';
import { openedPayload } from './event-payload.ts';
import { WITHHELD_TEXT } from '../../domain/sealing.ts';
import { eventTypeName } from './task-event-kinds.ts';

// The live-feed resolvers take the event type from here.
export { TaskEventRef };

const isPrivate = (e: EventRow) => e.redaction === 'PRIVATE';

builder.interfaceType(TaskEventRef, {
  description:
    'One entry of a task\'s append-only log. seq is gap-free per task (1, 2, 3, …). Each event type has an object type of its own ' +
    'with its payload as typed fields (TASK_CREATED: TaskCreatedEvent, …): select them with inline fragments. ' +
    'Private events keep their place in the sequence but arrive redacted: their typed fields are null.',
  resolveType: (e) => (isEventType(e.type) ? eventTypeName(e.type) : eventTypeName('NOTE')),
  fields: (t) => ({
    id: t.id({
      description: 'Global id of this event (its task and seq).',
      resolve: (e) => encodeGlobalID('TaskEvent', `${e.taskId}:${e.seq}`),
    }),
    seq: t.exposeInt('seq', { description: 'Position in the task\'s log: 1, 2, 3, … with no gap.' }),
    cursor: t.string({
      description: 'Opaque workspace cursor: pass to workspaceEvents(after:) or Workspace.events(after:) to resume after this event.',
      resolve: (e) => cursorOfEvent(e),
    }),
    type: t.field({
      type: TaskEventTypeEnum,
      description: 'What kind of event it is; the object type says the same (TaskCreatedEvent for TASK_CREATED, …).',
      // Every stored type is catalogued: appends accept only catalogued types.
      resolve: (e) => (isEventType(e.type) ? e.type : 'NOTE'),
    }),
    visibility: t.field({
      type: EventVisibilityEnum,
      description: 'MILESTONE for what a person following the work cares about, DETAIL for the runtime\'s internals.',
      resolve: (e) => visibilityOf(e.type),
    }),
    occurredAt: t.expose('occurredAt', { type: 'DateTime', description: 'When it was written.' }),
    actor: t.field({
      type: EventActorRef,
      description: 'Who caused it: a person, the agent or the system.',
      resolve: (e) => ({ kind: e.actorKind, id: e.actorId, workerId: e.workerId, workspaceId: e.workspaceId, version: e.actorVersion ?? null, run: e.actorRun ?? null }),
    }),
    redacted: t.boolean({ description: 'True for a private event: it keeps its place, but carries no payload.', resolve: isPrivate }),
    payloadSchema: t.string({ description: 'Name and version of the payload\'s shape, e.g. task_created/v1.', resolve: (e) => e.payloadSchema }),
    payloadSize: t.int({ description: 'Size of the stored payload in bytes.', resolve: (e) => e.payloadSize }),
    payload: t.field({
      type: 'JSON',
      nullable: true,
      deprecationReason: 'Use the typed fields of the event\'s own type (… on TaskCreatedEvent { title }). Removed in the next release.',
      description: 'The untyped payload (large ones are loaded from their reference). Null when redacted.',
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
      description: 'The task whose log holds it.',
      resolve: (e, _a, ctx) => ctx.loaders.task.load(e.taskId).then((x) => x!),
    }),
  }),
});
