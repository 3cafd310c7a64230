// Event positions. An append inserts its events with position NULL and no workspace lock (append.ts);
// the sequencer gives committed events their workspace positions afterwards, in batches, under the
// workspace row's lock (atelier_sequence_events, prisma/migrations/*_event_sequencer). So writers of
// one workspace never wait for each other, and readers keep the simple rule they had: positions are
// gap-free per workspace and committed in order, and `position > k` after head k misses nothing.
//
// Who sequences:
//  - the process that committed the events, right after commit (notifier.ts, coalesced per flush);
//  - every reader before it reads positions: a feed's head read (a subscription opening, a topic's
//    safety poll) and a page of a task's events. So a process that dies between its commit and its
//    sequencing delays those events until the next read or poll; it never loses them.
import type { Db } from '../db/client.ts';
import { poolOf } from '../db/client.ts';

/**
 * Sequences every committed, unsequenced event of `workspaceIds` and returns each existing
 * workspace's head. One statement; without pending events it takes no lock and writes nothing.
 */
export async function sequenceEvents(db: Db, workspaceIds: readonly string[]): Promise<Map<string, number>> {
  if (workspaceIds.length === 0) return new Map();
  const sql = `SELECT workspace_id::text AS id, head::text AS head FROM atelier_sequence_events($1::uuid[])`;
  const pool = poolOf(db);
  const rows = pool
    ? (await pool.query<{ id: string; head: string }>(sql, [workspaceIds])).rows
    : await db.$queryRawUnsafe<{ id: string; head: string }[]>(sql, workspaceIds);
  return new Map(rows.map((r) => [r.id, Number(r.head)]));
}
