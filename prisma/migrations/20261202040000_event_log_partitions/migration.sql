-- Hand-written: the event log is partitioned by workspace (PostgreSQL native HASH partitioning,
-- 16 partitions).
--
-- Why by workspace: every hot read and write of the log names one workspace (appends, the
-- sequencer, a subscriber's catch-up read), so each touches one partition and its smaller indexes,
-- and the log splits along the same key a distributed PostgreSQL would shard it by (Citus
-- distributes by workspace_id the same way). Not by time: a unique index of a partitioned table
-- must include the partition key, so time partitions would lose the database's own guarantee of
-- one event per (task, seq) and per (workspace, position); with workspace_id in the key both stay
-- exactly as strong (a task and its positions belong to one workspace). Retention of old history
-- is a batched delete of ended tasks' events (server/store/retention.ts), not a partition drop.
--
-- Invariants kept: ids keep coming from the same sequence (id order = insertion order, which the
-- sequencer relies on); (task_id, seq) and (workspace_id, position) unique; the log append-only
-- except the sequencer's NULL → position; the checks and foreign keys as before.

-- The id sequence outlives the old table (it would be dropped with it).
ALTER SEQUENCE task_events_id_seq OWNED BY NONE;

CREATE TABLE task_events_partitioned (LIKE task_events INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
  PARTITION BY HASH (workspace_id);
DO $$
BEGIN
  FOR r IN 0..15 LOOP
    EXECUTE format('CREATE TABLE task_events_p%s PARTITION OF task_events_partitioned FOR VALUES WITH (MODULUS 16, REMAINDER %s)',
                   lpad(r::text, 2, '0'), r);
  END LOOP;
END $$;

INSERT INTO task_events_partitioned SELECT * FROM task_events;
DROP TABLE task_events;
ALTER TABLE task_events_partitioned RENAME TO task_events;
ALTER SEQUENCE task_events_id_seq OWNED BY task_events.id;

ALTER TABLE task_events ADD CONSTRAINT task_events_pkey PRIMARY KEY (workspace_id, id);
ALTER TABLE task_events ADD CONSTRAINT task_events_task_id_seq_workspace_id_key UNIQUE (task_id, seq, workspace_id);
ALTER TABLE task_events ADD CONSTRAINT task_events_workspace_id_position_key UNIQUE (workspace_id, position);
CREATE INDEX task_events_unsequenced_idx ON task_events (workspace_id, id) WHERE position IS NULL;
ALTER TABLE task_events ADD CONSTRAINT task_events_task_id_fkey FOREIGN KEY (task_id) REFERENCES tasks(id) ON UPDATE CASCADE ON DELETE CASCADE;
ALTER TABLE task_events ADD CONSTRAINT task_events_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE;

-- The log stays append-only: the only update is the sequencer's, NULL → a position. (Deletes:
-- cascades from a task or workspace, and the retention sweep of ended tasks' history.)
CREATE TRIGGER task_events_append_only BEFORE UPDATE ON task_events
  FOR EACH ROW WHEN (
    OLD.position IS NOT NULL OR NEW.position IS NULL
    OR (OLD.id, OLD.task_id, OLD.workspace_id, OLD.seq, OLD.type, OLD.actor_kind, OLD.actor_id, OLD.worker_id,
        OLD.occurred_at, OLD.redaction, OLD.payload, OLD.payload_hash, OLD.payload_size, OLD.payload_schema)
       IS DISTINCT FROM
       (NEW.id, NEW.task_id, NEW.workspace_id, NEW.seq, NEW.type, NEW.actor_kind, NEW.actor_id, NEW.worker_id,
        NEW.occurred_at, NEW.redaction, NEW.payload, NEW.payload_hash, NEW.payload_size, NEW.payload_schema))
  EXECUTE FUNCTION atelier_events_append_only();

-- The sequencer as before, with the workspace named in its update, so it touches one partition
-- (an event's key is (workspace_id, id) now).
CREATE OR REPLACE FUNCTION atelier_sequence_events(ws uuid[]) RETURNS TABLE (workspace_id uuid, head bigint)
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
    -- NO KEY UPDATE: serialises sequencers without conflicting with appends' foreign-key checks.
    PERFORM 1 FROM workspaces WHERE id = w FOR NO KEY UPDATE;
    WITH batch AS (
      SELECT e.id, row_number() OVER (ORDER BY e.id) AS n
        FROM task_events e WHERE e.workspace_id = w AND e.position IS NULL
    ), moved AS (
      UPDATE workspaces SET event_position = event_position + (SELECT count(*) FROM batch)
       WHERE id = w RETURNING event_position - (SELECT count(*) FROM batch) AS base, event_position
    ), upd AS (
      UPDATE task_events t SET position = moved.base + batch.n
        FROM batch, moved WHERE t.workspace_id = w AND t.id = batch.id
    )
    SELECT moved.event_position INTO h FROM moved;
    PERFORM pg_notify('atelier_events', w::text || ':' || h::text);
  END LOOP;
  RETURN QUERY SELECT s.id, s.event_position FROM workspaces s WHERE s.id = ANY (ws);
END $$;
