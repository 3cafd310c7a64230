// One object type per event type, built from the catalogue (domain/event-catalog.ts): each
// implements TaskEvent and shows its payload as typed fields. References are global ids; values
// the runtime writes in lower case (transitions, decisions) are the upper-case enum values.
//
// Invariants: a private (redacted) event answers null for every typed field; a value the type
// cannot carry (an old or malformed payload) is null, never an error for the whole event.
import { encodeGlobalID } from '@pothos/plugin-relay';
import type { EnumRef } from '@pothos/core';
import { getNullableType, type GraphQLEnumType, type GraphQLResolveInfo } from 'graphql';
import { EVENT_CATALOG, EVENT_TYPES, type EventType, type PayloadField } from '../../domain/event-catalog.ts';
import type { EventRow } from '../../services/events/event-view.ts';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { ApprovalKindEnum } from '../enums/approval-kind.ts';
import { ApprovalStatusEnum } from '../enums/approval-status.ts';
import { ContinuationDecisionEnum } from '../enums/continuation-decision.ts';
import { MemoryUnavailableReasonEnum } from '../enums/memory-unavailable-reason.ts';
import { ObjectKindEnum } from '../enums/object-kind.ts';
import { TaskKindEnum } from '../enums/task-kind.ts';
import { GenerationJobStatusEnum } from '../enums/generation-job-status.ts';
import { TaskSignalEnum } from '../enums/task-signal.ts';
import { TaskStatusEnum } from '../enums/task-status.ts';
import { TaskTransitionEnum } from '../enums/task-transition.ts';
import { TurnOutcomeEnum } from '../enums/turn-outcome.ts';
import { RemoteTaskStateEnum } from '../enums/remote-task-state.ts';
import { ApprovalOptionRef, ApprovalReasonRef, ChecklistItemRef, EventFileRef, EventToolCallRef, TaskEventRef } from '../refs.ts';
import { openedPayload } from './event-payload.ts';
import { publicJson, publicRun, publicText } from '../public-ids.ts';
import { withFileNames } from '../../domain/file-names.ts';
import { enumValue, payloadAt } from '../../services/events/present-fields.ts';

/** TASK_CREATED → TaskCreatedEvent. */
export const eventTypeName = (type: EventType): string =>
  `${type.toLowerCase().replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}Event`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const ENUMS: Record<string, EnumRef<any, any>> = {
  TaskStatus: TaskStatusEnum,
  TaskTransition: TaskTransitionEnum,
  TaskSignal: TaskSignalEnum,
  ContinuationDecision: ContinuationDecisionEnum,
  TurnOutcome: TurnOutcomeEnum,
  MemoryUnavailableReason: MemoryUnavailableReasonEnum,
  ApprovalKind: ApprovalKindEnum,
  ApprovalStatus: ApprovalStatusEnum,
  ObjectKind: ObjectKindEnum,
  TaskKind: TaskKindEnum,
  GenerationJobStatus: GenerationJobStatusEnum,
  RemoteTaskState: RemoteTaskStateEnum,
};

const LISTS = {
  '[ChecklistItem]': ChecklistItemRef,
  '[ApprovalReason]': ApprovalReasonRef,
  '[ApprovalOption]': ApprovalOptionRef,
  '[EventToolCall]': EventToolCallRef,
  '[EventFile]': EventFileRef,
} as const;

async function valueOf(e: EventRow, ctx: Context, path: string): Promise<unknown> {
  if (e.redaction === 'PRIVATE') return undefined;
  return payloadAt((await openedPayload(e, ctx)).value, path);
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

EventToolCallRef.implement({
  description: 'A tool call the model decided on.',
  fields: (t) => ({
    id: t.id({ description: 'Global id of the tool call (as TOOL_CALL_* events carry it).', resolve: (c) => encodeGlobalID('ToolCall', c.id) }),
    name: t.exposeString('name', { description: 'The tool\'s name.' }),
  }),
});

EventFileRef.implement({
  description: 'A file a generation made: its type and size (the work it became holds the file itself).',
  fields: (t) => ({
    mime: t.exposeString('mime', { description: 'Its media type, e.g. image/png.' }),
    bytes: t.exposeInt('bytes', { description: 'Its size in bytes.' }),
  }),
});

// One GraphQL type per field name across all event types (see PayloadField): checked when the
// schema is built, so a catalogue entry that breaks it fails at start-up and in every test.
const typeOfName = new Map<string, string>();
for (const type of EVENT_TYPES) {
  for (const [name, [kind]] of Object.entries(EVENT_CATALOG[type].fields as Record<string, PayloadField>)) {
    const seen = typeOfName.get(name);
    if (seen && seen !== kind) throw new Error(`event catalogue: field ${name} is ${seen} in one event type and ${kind} in ${type}`);
    typeOfName.set(name, kind);
  }
}

/** The object type of each event type, for unions that hold events (a union cannot hold the interface). */
export const EVENT_OBJECT_REFS = new Map<EventType, ReturnType<typeof builder.objectRef<EventRow>>>();

for (const type of EVENT_TYPES) {
  const spec = EVENT_CATALOG[type];
  const ref = builder.objectRef<EventRow>(eventTypeName(type));
  EVENT_OBJECT_REFS.set(type, ref);
  builder.objectType(ref, {
    description: `${spec.about} Event type ${type} (${spec.visibility === 'MILESTONE' ? 'a milestone' : 'a detail'}).`,
    interfaces: [TaskEventRef],
    isTypeOf: (e) => (e as EventRow).type === type,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    fields: (t) => Object.fromEntries(Object.entries(spec.fields as Record<string, PayloadField>).map(([name, f]) => [name, payloadField(t as any, name, f)])),
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function payloadField(t: any, name: string, [kind, description, path]: PayloadField) {
  const from = path ?? name;
  const read = (e: EventRow, _a: unknown, ctx: Context) => valueOf(e, ctx, from);
  const common = { nullable: true, description };
  if (kind.startsWith('ID:')) {
    const typename = kind.slice(3);
    return t.id({ ...common, resolve: async (e: EventRow, a: unknown, ctx: Context) => {
      const v = str(await read(e, a, ctx));
      return v ? encodeGlobalID(typename, v) : null;
    } });
  }
  if (kind in LISTS) {
    const item = LISTS[kind as keyof typeof LISTS];
    return t.field({ ...common, type: [item], resolve: async (e: EventRow, a: unknown, ctx: Context) => {
      const v = await read(e, a, ctx);
      return Array.isArray(v) ? v.filter((x) => x !== null && typeof x === 'object') : null;
    } });
  }
  if (kind in ENUMS) {
    return t.field({ ...common, type: ENUMS[kind], resolve: async (e: EventRow, a: unknown, ctx: Context, info: GraphQLResolveInfo) => {
      const v = str(await read(e, a, ctx));
      const value = v ? enumValue(v) : null;
      // A value the enum does not know (an old payload) is null rather than an error.
      return value && (getNullableType(info.returnType) as GraphQLEnumType).getValue(value) ? value : null;
    } });
  }
  switch (kind) {
    case 'Int':
      return t.int({ ...common, resolve: async (e: EventRow, a: unknown, ctx: Context) => {
        const v = num(await read(e, a, ctx));
        return v === null ? null : Math.trunc(v);
      } });
    case 'Float':
      return t.float({ ...common, resolve: async (e: EventRow, a: unknown, ctx: Context) => num(await read(e, a, ctx)) });
    case 'Boolean':
      return t.boolean({ ...common, resolve: async (e: EventRow, a: unknown, ctx: Context) => {
        const v = await read(e, a, ctx);
        return typeof v === 'boolean' ? v : null;
      } });
    case 'JSON':
      // As ToolCall.result shows it: objects, jobs and tasks by their global ids, files by name.
      return t.field({ ...common, type: 'JSON', resolve: async (e: EventRow, a: unknown, ctx: Context) => publicJson(withFileNames((await read(e, a, ctx)) ?? null)) });
    case 'String':
      // Text may name objects (`object:<id>` links): as the API shows them everywhere, by global id.
      return t.string({ ...common, resolve: async (e: EventRow, a: unknown, ctx: Context) => {
        const v = str(await read(e, a, ctx));
        // A run (`run`) is shown as its opaque id, like on the event's actor.
        return v === null ? null : from === 'run' ? publicRun(v) : publicText(v);
      } });
    default:
      throw new Error(`event catalogue: unknown payload field type ${kind}`);
  }
}
