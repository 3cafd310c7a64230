// Appending to the event log. Invariants:
//  - (task_id, seq) is gap-free and strictly increasing, in commit order: the task's counter is
//    bumped under its row lock in the same statement as the insert, held until commit.
//  - Appends take no workspace-wide lock: events are inserted with position NULL, and the
//    sequencer gives them their workspace positions after commit (sequencer.ts). So writers of
//    one workspace never wait for each other's commits.
//  - Events are appended by the transaction that makes the state change they describe.
//  - Lock order is task rows by id. A transaction appending to several tasks appends them in that
//    order (unit-of-work.ts), or it could deadlock against another doing the same.
//  - One statement per append: the seq bump, large payloads (stored once by content hash) and the
//    events go in together, and a task whose sealing key is not the one the caller sealed under
//    appends nothing (the caller reads the key and tries again). Outside a transaction it goes
//    straight to the pool: one round trip, one commit.
import { rawQuery, type Db } from '../db/client.ts';
import { sealsEvent, sealValue, type DataKeyMaterial } from '../domain/sealing.ts';
import { stepSealingKey } from '../store/sealing/scope.ts';
import { taskSealingKey } from '../store/sealing/keys.ts';
import { encodePayload } from './payload.ts';
import { currentAgent, currentWorker, type RunAgent } from './writer.ts';
import type { AppendedEvent, NewEvent } from './types.ts';

type RawRow = { id: string | bigint; workspace_id: string; seq: number; occurred_at: Date };

// $1 task, $2 number of events, $3 the events (a JSON array), $4 whether to check the sealing key,
// $5 the key the payloads were sealed under (null: in the clear).
const APPEND_SQL = `
WITH t AS (
  UPDATE tasks SET last_event_seq = last_event_seq + $2::int
   WHERE id = $1::uuid
     AND (NOT $4::boolean OR (SELECT k.id FROM data_keys k WHERE k.id = tasks.sealing_key_id AND k.material IS NOT NULL)
                             IS NOT DISTINCT FROM $5::uuid)
  RETURNING workspace_id, last_event_seq
), x AS (
  SELECT e.value AS v, e.ord FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e(value, ord)
), stored AS (
  INSERT INTO event_payloads (hash, size, schema, body)
  SELECT x.v->>'payloadHash', (x.v->>'payloadSize')::int, x.v->>'payloadSchema', x.v->'body'
    FROM x, t WHERE x.v ? 'body'
  ON CONFLICT (hash) DO NOTHING
)
INSERT INTO task_events (task_id, workspace_id, seq, type, actor_kind, actor_id, actor_version, actor_run, worker_id,
                         occurred_at, redaction, payload, payload_hash, payload_size, payload_schema)
SELECT $1::uuid, t.workspace_id, t.last_event_seq - $2::int + x.ord::int, x.v->>'type', (x.v->>'actorKind')::"ActorKind",
       x.v->>'actorId', (x.v->>'actorVersion')::int, x.v->>'actorRun', x.v->>'workerId', clock_timestamp(), (x.v->>'redaction')::"Redaction",
       CASE WHEN x.v ? 'payload' THEN x.v->'payload' END, x.v->>'payloadHash',
       (x.v->>'payloadSize')::int, x.v->>'payloadSchema'
  FROM t, x
 ORDER BY x.ord
RETURNING id, workspace_id, seq, occurred_at`;

export class TaskNotFoundForAppend extends Error {
  constructor(readonly taskId: string) {
    super(`cannot append events: task ${taskId} does not exist`);
    this.name = 'TaskNotFoundForAppend';
  }
}

// The last sealing key seen per task, for writes outside a step: only a guess that saves a read
// per append. The statement checks it against the database and refuses a wrong one, so a stale
// entry costs one retry, never a payload sealed under the wrong key (or left in the clear).
const KNOWN_KEYS_MAX = 10_000;
const knownKeys = new Map<string, DataKeyMaterial | null>();
function rememberKey(taskId: string, key: DataKeyMaterial | null): void {
  knownKeys.delete(taskId);
  knownKeys.set(taskId, key);
  if (knownKeys.size > KNOWN_KEYS_MAX) knownKeys.delete(knownKeys.keys().next().value!);
}

type Spec = { json: string; row: Omit<AppendedEvent, 'id' | 'taskId' | 'workspaceId' | 'seq' | 'occurredAt'> };

function encode(events: readonly NewEvent[], key: DataKeyMaterial | null, workerId: string | null, agent: RunAgent | null): Spec[] {
  return events.map((e) => {
    // The agent's events inside a run are the run's principal's: its id, version and run.
    const actor = e.actor.kind === 'AGENT' && agent && !e.actor.version ? { kind: 'AGENT' as const, id: agent.id, version: agent.version, run: agent.run } : e.actor;
    // A task with memory in its context has its payloads sealed (store/sealing): what is stored,
    // hashed and delivered is the ciphertext; readers open it (or see it withheld once forgotten).
    const enc = encodePayload(key && e.payload != null && sealsEvent(e) ? sealValue(key, e.payload) : e.payload);
    const row = {
      type: e.type,
      actorKind: actor.kind,
      actorId: actor.id ?? null,
      actorVersion: actor.version ?? null,
      actorRun: actor.run ?? null,
      workerId,
      redaction: e.redaction ?? 'PUBLIC',
      payload: null as unknown,
      payloadHash: enc.inline ? null : enc.hash,
      payloadSize: enc.size,
      payloadSchema: e.schema ?? `${e.type.toLowerCase()}/v1`,
    };
    // The canonical JSON goes into the statement as it is (no parse and re-serialise).
    const head = JSON.stringify({ ...row, payload: undefined, payloadHash: row.payloadHash ?? undefined });
    const json = `${head.slice(0, -1)},${enc.inline ? '"payload":' : '"body":'}${enc.json}}`;
    if (enc.inline) row.payload = JSON.parse(enc.json);
    return { json, row };
  });
}

/**
 * Appends events for one task. With a transaction client it joins that transaction; with the
 * plain client it is one atomic statement on its own.
 */
export async function appendEvents(db: Db, taskId: string, events: readonly NewEvent[]): Promise<AppendedEvent[]> {
  if (events.length === 0) return [];
  const workerId = currentWorker();
  const agent = currentAgent();
  const inStep = stepSealingKey(taskId);
  // Inside a step the step's key is used as it is (even one destroyed mid-step: what the step
  // wrote from forgotten memory stays unreadable); elsewhere the task's current key, checked.
  let key: DataKeyMaterial | null = inStep ? inStep.key : (knownKeys.get(taskId) ?? null);
  for (let attempt = 1; ; attempt++) {
    const specs = encode(events, key, workerId, agent);
    const params = [taskId, events.length, `[${specs.map((s) => s.json).join(',')}]`, !inStep, key?.id ?? null];
    const rows = await rawQuery<RawRow>(db, APPEND_SQL, params);
    if (rows.length === events.length) {
      if (!inStep) rememberKey(taskId, key);
      return rows.map((r, i) => ({
        id: BigInt(r.id),
        taskId,
        workspaceId: r.workspace_id,
        seq: Number(r.seq),
        occurredAt: r.occurred_at,
        ...specs[i]!.row,
      }));
    }
    // Nothing appended: the task is gone, or its key is not the one we sealed under.
    const exists = (await rawQuery(db, 'SELECT 1 FROM tasks WHERE id = $1::uuid', [taskId])).length > 0;
    if (!exists || inStep) throw new TaskNotFoundForAppend(taskId);
    if (attempt >= 5) throw new Error(`cannot append events: the sealing key of task ${taskId} kept changing`);
    key = await taskSealingKey(db, taskId);
  }
}
