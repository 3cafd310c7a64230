// The context_summaries table: compaction decisions, one row per (task, version), written before the
// request that applies them, so a retried step, a takeover and replay all render from the same rows.
import type { Db } from '../../db/client.ts';
import type { Prisma } from '../../db/generated/client.ts';
import type { CompactionRecord } from '../../domain/compaction.ts';
import { sealForTask } from '../sealing/scope.ts';
import { opened } from '../sealing/open.ts';

/** The task's compaction rows, in version order (the order they were decided in). */
export async function loadCompactions(db: Db, taskId: string): Promise<CompactionRecord[]> {
  // A summary of a task with memory in its context is sealed like the rest of what it derived.
  const rows = await opened(db, await db.contextSummary.findMany({ where: { taskId }, orderBy: { version: 'asc' } }));
  return rows.map((r) => ({ version: r.version, stage: r.stage as CompactionRecord['stage'], fromStep: r.fromStep, toStep: r.toStep, atStep: r.atStep, text: r.text }));
}

/**
 * Writes the next version. (task, version) is unique: when another worker (a takeover) wrote this
 * version first, nothing is written and false is returned — the caller reloads and takes theirs.
 */
export async function insertCompaction(
  db: Db,
  row: { taskId: string; version: number; stage: number; fromStep: number; toStep: number; atStep: number; text: string; model: string | null; usage: unknown },
): Promise<boolean> {
  try {
    await db.contextSummary.create({ data: { ...row, text: await sealForTask(db, row.taskId, row.text), usage: row.usage as Prisma.InputJsonValue } });
    return true;
  } catch (e) {
    if (!/Unique constraint|P2002/.test((e as Error).message)) throw e;
    return false;
  }
}

/** Records the step at which a REVISE superseded a summary; set once, never moved. */
export async function markCompactionSuperseded(db: Db, taskId: string, version: number, atStep: number | null): Promise<void> {
  await db.contextSummary.updateMany({ where: { taskId, version, supersededAtStep: null }, data: { supersededAtStep: atStep } });
}
