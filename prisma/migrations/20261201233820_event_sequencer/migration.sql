-- AlterTable
ALTER TABLE "task_events" ALTER COLUMN "position" DROP NOT NULL;

-- Hand-written: the workspace sequencer.
--
-- Appends no longer take the workspace row lock (which serialised every writer of a workspace, and
-- held it through each commit's flush): an event is inserted with position NULL, and positions are
-- handed out after commit, in batches, by atelier_sequence_events under that lock. Invariants:
--  - a position is set once, from NULL, and nothing else of an event ever changes (trigger below);
--  - positions of a workspace are gap-free and committed in position order: the sequencer bumps
--    workspaces.event_position and sets the positions in one statement under the row's lock, held
--    to commit, so a reader that has seen head k has seen every position <= k;
--  - a batch takes every committed, unsequenced event of the workspace in id order. Appends to one
--    task are serialised by its row lock (the later one inserts after the earlier commits), so a
--    task's events get positions in seq order, and an event caused by another committed one comes
--    after it.

-- Unsequenced events, per workspace, in the order they get positions (small: a batch empties it).
CREATE INDEX task_events_unsequenced_idx ON task_events (workspace_id, id) WHERE position IS NULL;

DROP TRIGGER task_events_append_only ON task_events;
-- The log stays append-only: the only update is the sequencer's, NULL → a position.
CREATE TRIGGER task_events_append_only BEFORE UPDATE ON task_events
  FOR EACH ROW WHEN (
    OLD.position IS NOT NULL OR NEW.position IS NULL
    OR (OLD.id, OLD.task_id, OLD.workspace_id, OLD.seq, OLD.type, OLD.actor_kind, OLD.actor_id, OLD.worker_id,
        OLD.occurred_at, OLD.redaction, OLD.payload, OLD.payload_hash, OLD.payload_size, OLD.payload_schema)
       IS DISTINCT FROM
       (NEW.id, NEW.task_id, NEW.workspace_id, NEW.seq, NEW.type, NEW.actor_kind, NEW.actor_id, NEW.worker_id,
        NEW.occurred_at, NEW.redaction, NEW.payload, NEW.payload_hash, NEW.payload_size, NEW.payload_schema))
  EXECUTE FUNCTION atelier_events_append_only();

-- Gives every committed, unsequenced event of the workspaces `ws` its position, notifies each
-- workspace it moved on channel atelier_events ("<workspace>:<head>"), and returns the head of every
-- workspace in `ws` that exists. Cheap when there is nothing to do (one probe of the partial index,
-- no lock, no write). Safe to call from any process at any time: callers serialise on the workspace
-- row (appends never wait for it), and each statement below takes its own snapshot (READ
-- COMMITTED, volatile function), so the batch read after the lock sees every batch committed
-- before it.
CREATE FUNCTION atelier_sequence_events(ws uuid[]) RETURNS TABLE (workspace_id uuid, head bigint)
LANGUAGE plpgsql AS $$
DECLARE
  w uuid;
  h bigint;
BEGIN
  FOR w IN
    SELECT DISTINCT e.workspace_id FROM task_events e
     WHERE e.workspace_id = ANY (ws) AND e.position IS NULL
     ORDER BY 1
  LOOP
    -- Lock order: workspaces by id (the loop's order), so concurrent sequencers never deadlock.
    -- NO KEY UPDATE, not UPDATE: it serialises sequencers but does not conflict with the KEY SHARE
    -- lock every append's foreign-key check takes on the workspace row. A FOR UPDATE waiting here
    -- would queue appends behind it, and an append that holds a task row another transaction waits
    -- for then closes a deadlock cycle through that transaction's own KEY SHARE.
    PERFORM 1 FROM workspaces WHERE id = w FOR NO KEY UPDATE;
    WITH batch AS (
      SELECT e.id, row_number() OVER (ORDER BY e.id) AS n
        FROM task_events e WHERE e.workspace_id = w AND e.position IS NULL
    ), moved AS (
      UPDATE workspaces SET event_position = event_position + (SELECT count(*) FROM batch)
       WHERE id = w RETURNING event_position - (SELECT count(*) FROM batch) AS base, event_position
    ), upd AS (
      UPDATE task_events t SET position = moved.base + batch.n
        FROM batch, moved WHERE t.id = batch.id
    )
    SELECT moved.event_position INTO h FROM moved;
    PERFORM pg_notify('atelier_events', w::text || ':' || h::text);
  END LOOP;
  RETURN QUERY SELECT s.id, s.event_position FROM workspaces s WHERE s.id = ANY (ws);
END $$;

