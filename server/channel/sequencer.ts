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
import { rawQuery, type PrismaClient } from '../db/client.ts';

/**
 * Sequences every committed, unsequenced event of `workspaceIds` and returns each existing
 * workspace's head. One statement of its own (never inside a transaction: the workspace row's
 * lock would be held until that transaction ends); without pending events it takes no lock and
 * writes nothing.
 */
export async function sequenceEvents(prisma: PrismaClient, workspaceIds: readonly string[]): Promise<Map<string, number>> {
  if (workspaceIds.length === 0) return new Map();
  const rows = await rawQuery<{ id: string; head: string }>(
    prisma,
    `SELECT workspace_id::text AS id, head::text AS head FROM atelier_sequence_events($1::uuid[])`,
    [workspaceIds],
  );
  return new Map(rows.map((r) => [r.id, Number(r.head)]));
}
