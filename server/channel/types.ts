// The event channel's data types. Shared by the append path, the live feeds and the API layer.
import type { EventType } from '../domain/event-catalog.ts';

export type ActorKind = 'USER' | 'AGENT' | 'SYSTEM';
export type Redaction = 'PUBLIC' | 'PRIVATE';

/**
 * Who caused an event. For the agent (AGENT): `id` is the agent principal's id, `version` the
 * principal's version it acted with and `run` the run (`<turn id>:<generation>`); an AGENT event
 * appended during a run gets all three from the run (writer.ts asAgent) when it names none.
 */
export type Actor = { kind: ActorKind; id?: string | null; version?: number | null; run?: string | null };

/** An event to append. `payload` must be JSON-serialisable. */
export type NewEvent = {
  /** Only the catalogued types (domain/event-catalog.ts): every stored event has a typed shape in the API. */
  type: EventType;
  actor: Actor;
  payload?: unknown;
  /** Name/version of the payload's shape, e.g. `task.status/v1`. */
  schema?: string;
  /** PRIVATE events are kept for the server (audit, replay) and reach clients only as redacted stubs. */
  redaction?: Redaction;
};

/**
 * An event as its append returns it: everything but its workspace position, which the sequencer
 * gives it after commit (sequencer.ts).
 */
export type AppendedEvent = Omit<EventRow, 'position'>;

/** A stored, sequenced event. `payload` is null when it is stored by reference (see payloadHash). */
export type EventRow = {
  id: bigint;
  taskId: string;
  workspaceId: string;
  seq: number;
  position: number;
  type: string;
  actorKind: ActorKind;
  actorId: string | null;
  /** The agent principal's version when it acted (AGENT events written during a run). */
  actorVersion?: number | null;
  /** The run that wrote it (`<turn id>:<generation>`, AGENT events written during a run). */
  actorRun?: string | null;
  /** The worker process that wrote it (see writer.ts); null for the API's own writes. */
  workerId: string | null;
  occurredAt: Date;
  redaction: Redaction;
  payload: unknown;
  payloadHash: string | null;
  payloadSize: number;
  payloadSchema: string;
};
