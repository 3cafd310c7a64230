// Appending to the event log. Invariants:
//  - (task_id, seq) and (workspace_id, position) are gap-free and strictly increasing, and in
//    commit order: both counters are bumped under the task's and then the workspace's row lock in
//    the same statement as the insert, and those locks are held until commit. So a committed
//    position k implies every position < k is committed, which is what lets a reader that saw
//    "head = k" never miss an event (see feed.ts).
//  - Events are appended by the transaction that makes the state change they describe. Call this
//    last in the transaction: the workspace row lock is held until commit.
//  - Lock order is task rows → workspace row. A transaction appending to several tasks must lock
//    all of them first (unit-of-work.ts does), or it would deadlock against single-task appenders.
import type { Db } from '../db/client.ts';
import { sealsEvent, sealValue } from '../domain/sealing.ts';
import { sealingKeyFor } from '../store/sealing/scope.ts';
import { encodePayload } from './payload.ts';
import { currentWorker } from './writer.ts';
import type { EventRow, NewEvent } from './types.ts';

type RawRow = {
  id: bigint;
  workspace_id: string;
  seq: number;
  position: bigint;
  occurred_at: Date;
};

const APPEND_SQL = `
WITH t AS (
  UPDATE tasks SET last_event_seq = last_event_seq + $2::int
   WHERE id = $1::uuid
  RETURNING workspace_id, last_event_seq
), w AS (
  UPDATE workspaces SET event_position = event_position + $2::int
    FROM t
   WHERE workspaces.id = t.workspace_id
  RETURNING event_position
), x AS (
  SELECT e.value AS v, e.ord
    FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e(value, ord)
)
INSERT INTO task_events (task_id, workspace_id, seq, position, type, actor_kind, actor_id, worker_id,
                         occurred_at, redaction, payload, payload_hash, payload_size, payload_schema)
SELECT $1::uuid, t.workspace_id, t.last_event_seq - $2::int + x.ord::int,
       w.event_position - $2::int + x.ord, x.v->>'type', (x.v->>'actorKind')::"ActorKind",
       x.v->>'actorId', x.v->>'workerId', clock_timestamp(), (x.v->>'redaction')::"Redaction",
       CASE WHEN x.v ? 'payload' THEN x.v->'payload' END, x.v->>'payloadHash',
       (x.v->>'payloadSize')::int, x.v->>'payloadSchema'
  FROM t, w, x
 ORDER BY x.ord
RETURNING id, workspace_id, seq, position, occurred_at`;

export class TaskNotFoundForAppend extends Error {
  constructor(readonly taskId: string) {
    super(`cannot append events: task ${taskId} does not exist`);
    this.name = 'TaskNotFoundForAppend';
  }
}

/**
 * Appends events for one task. With a transaction client it joins that transaction; with the plain
 * client it is one atomic statement on its own (a large payload stored first is harmless if the
 * append then fails: payloads are content-addressed and only referenced by events).
 */
export async function appendEvents(tx: Db, taskId: string, events: readonly NewEvent[]): Promise<EventRow[]> {
  if (events.length === 0) return [];
  const workerId = currentWorker();
  // A task with memory in its context has its payloads sealed (store/sealing): what is stored,
  // hashed and delivered is the ciphertext; readers open it (or see it withheld once forgotten).
  const key = await sealingKeyFor(tx, taskId);
  const specs = events.map((e) => {
    const enc = encodePayload(key && e.payload != null && sealsEvent(e) ? sealValue(key, e.payload) : e.payload);
    return {
      e,
      enc,
      row: {
        type: e.type,
        actorKind: e.actor.kind,
        actorId: e.actor.id ?? null,
        workerId,
        redaction: e.redaction ?? 'PUBLIC',
        payloadSize: enc.size,
        payloadSchema: e.schema ?? `${e.type.toLowerCase()}/v1`,
        ...(enc.inline ? { payload: JSON.parse(enc.json) } : { payloadHash: enc.hash }),
      },
    };
  });
  const external = specs.filter((s) => !s.enc.inline);
  for (const s of external) {
    if (s.enc.inline) continue;
    await tx.$executeRawUnsafe(
      `INSERT INTO event_payloads (hash, size, schema, body) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (hash) DO NOTHING`,
      s.enc.hash,
      s.enc.size,
      s.row.payloadSchema,
      s.enc.json,
    );
  }
  const rows = await tx.$queryRawUnsafe<RawRow[]>(
    APPEND_SQL,
    taskId,
    events.length,
    JSON.stringify(specs.map((s) => s.row)),
  );
  if (rows.length !== events.length) throw new TaskNotFoundForAppend(taskId);
  return rows.map((r, i) => {
    const s = specs[i]!;
    return {
      id: r.id,
      taskId,
      workspaceId: r.workspace_id,
      seq: Number(r.seq),
      position: Number(r.position),
      type: s.row.type,
      actorKind: s.row.actorKind,
      actorId: s.row.actorId,
      workerId: s.row.workerId,
      occurredAt: r.occurred_at,
      redaction: s.row.redaction,
      payload: s.enc.inline ? (s.row as { payload?: unknown }).payload ?? null : null,
      payloadHash: s.enc.inline ? null : s.enc.hash,
      payloadSize: s.enc.size,
      payloadSchema: s.row.payloadSchema,
    };
  });
}
