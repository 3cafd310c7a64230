// The webhook dispatcher's statements (services/webhooks/dispatch.ts runs them): which endpoints of a
// workspace are behind its event log, and moving one of them forward. Invariants:
//  - An endpoint's cursor (event_cursor) only moves forward, and only in the transaction that writes
//    the deliveries of the events it passes, so a crash between the two cannot lose or double one:
//    either both are committed or neither is, and the next pass starts from the committed cursor.
//  - At most one delivery per (endpoint, event): the unique key turns a replayed pass (a second
//    dispatcher, a pass redone after a crash) into no-ops, and only new rows get a send job.
//  - The log is read by position, sequenced events only (`position > cursor`): positions are
//    gap-free per workspace and committed in order (channel/sequencer.ts), so reading after the
//    cursor never skips an event that a later read would find before it.
import { rawQuery, type Db, type Tx } from '../../db/client.ts';

export type BehindEndpoint = { id: string; cursor: number; eventTypes: string[]; visibilities: string[] };

// The workspace's enabled endpoints whose cursor is behind the head, locked until the caller's
// transaction ends. SKIP LOCKED: an endpoint that another dispatcher is moving is left to it; that
// one looks again after its commit, so an event it did not see is not left behind.
const BEHIND_SQL = `
SELECT e.id::text AS id, e.event_cursor::text AS cursor, e.event_types, e.visibilities
  FROM webhook_endpoints e
 WHERE e.workspace_id = $1::uuid AND e.enabled
   AND e.event_cursor < (SELECT w.event_position FROM workspaces w WHERE w.id = $1::uuid)
 ORDER BY e.id
   FOR UPDATE OF e SKIP LOCKED`;

export async function lockBehindEndpoints(tx: Tx, workspaceId: string): Promise<BehindEndpoint[]> {
  const rows = await rawQuery<{ id: string; cursor: string; event_types: string[]; visibilities: string[] }>(tx, BEHIND_SQL, [workspaceId]);
  return rows.map((r) => ({ id: r.id, cursor: Number(r.cursor), eventTypes: r.event_types ?? [], visibilities: r.visibilities ?? [] }));
}

// One page of the log after the endpoint's cursor: a delivery for each event the endpoint selects
// ($5 null: every type), the cursor moved to the last event read (selected or not), in one
// statement. The message id (the webhook-id header) is made here once and kept for every attempt.
const ADVANCE_SQL = `
WITH ev AS (
  SELECT id, task_id, seq, position, type, occurred_at
    FROM task_events
   WHERE workspace_id = $1::uuid AND position > $3::bigint
   ORDER BY position
   LIMIT $4::int
), ins AS (
  INSERT INTO webhook_deliveries (id, workspace_id, endpoint_id, kind, message_id, event_id, task_id, event_seq,
                                  event_position, event_type, occurred_at, next_attempt_at, updated_at)
  SELECT gen_random_uuid(), $1::uuid, $2::uuid, 'EVENT', 'msg_' || replace(gen_random_uuid()::text, '-', ''), ev.id,
         ev.task_id, ev.seq, ev.position, ev.type, ev.occurred_at, now(), now()
    FROM ev
   WHERE $5::text[] IS NULL OR ev.type = ANY($5::text[])
   ORDER BY ev.position
  ON CONFLICT (endpoint_id, event_id) DO NOTHING
  RETURNING id, event_position
), moved AS (
  UPDATE webhook_endpoints SET event_cursor = (SELECT max(ev.position) FROM ev)
   WHERE workspace_id = $1::uuid AND id = $2::uuid AND EXISTS (SELECT 1 FROM ev)
  RETURNING event_cursor
)
SELECT (SELECT count(*) FROM ev)::int AS read,
       (SELECT event_cursor::text FROM moved) AS cursor,
       coalesce((SELECT json_agg(ins.id::text ORDER BY ins.event_position) FROM ins), '[]'::json) AS created`;

export type Advanced = { read: number; cursor: number | null; created: string[] };

export async function advanceEndpoint(
  tx: Tx,
  a: { workspaceId: string; endpointId: string; after: number; limit: number; types: readonly string[] | null },
): Promise<Advanced> {
  const [r] = await rawQuery<{ read: number; cursor: string | null; created: string[] }>(tx, ADVANCE_SQL, [
    a.workspaceId,
    a.endpointId,
    a.after,
    a.limit,
    a.types ? [...a.types] : null,
  ]);
  return { read: r?.read ?? 0, cursor: r?.cursor == null ? null : Number(r.cursor), created: r?.created ?? [] };
}

// Every workspace with an enabled endpoint, with the lowest cursor among them: the dispatcher's
// safety poll (a wake-up lost with the LISTEN connection, a writer that died before notifying).
// It reads across workspaces on purpose (test/helpers/cross-workspace-allowlist.ts says why).
const FOLLOWED_SQL = `
SELECT workspace_id::text AS workspace_id, min(event_cursor)::text AS cursor
  FROM webhook_endpoints WHERE enabled GROUP BY workspace_id`;

export async function followedWorkspaces(db: Db): Promise<Map<string, number>> {
  const rows = await rawQuery<{ workspace_id: string; cursor: string }>(db, FOLLOWED_SQL, []);
  return new Map(rows.map((r) => [r.workspace_id, Number(r.cursor)]));
}
