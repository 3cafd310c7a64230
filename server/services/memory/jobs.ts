// Background extraction through pg-boss. The job is sent in the same transaction that stores the
// user's message (and its evidence row), keyed by evidence id + extractor version; a failing job is
// retried by pg-boss and applied exactly once (extract-memories.ts records it with its effects).
import { fromPrisma, type PgBoss } from 'pg-boss';
import type { Tx } from '../../db/client.ts';
import { POLLING, type Scheduler } from '../../store/scheduler.ts';
import { EXTRACTOR_VERSION } from './extractor.ts';
import { extractEvidence, type MemoryDeps } from './extract-memories.ts';
import { recordEvidence } from './store.ts';

export const MEMORY_QUEUE = 'atelier-memory-extract';
export type MemoryJob = { evidenceId: string; extractorVersion: string };

export async function ensureMemoryQueue(boss: PgBoss, retryDelaySeconds = 2): Promise<void> {
  // `notify`: the extraction starts as soon as the message commits (a fact said is retrievable
  // within the second), not at the worker's next poll.
  await boss.createQueue(MEMORY_QUEUE, { policy: 'short', notify: true, retryLimit: 8, retryDelay: retryDelaySeconds, retryBackoff: false, expireInSeconds: 5 * 60 });
  await boss.updateQueue(MEMORY_QUEUE, { notify: true }).catch(() => {});
}

/**
 * Stores a user's message as memory evidence and enqueues its extraction, inside the caller's
 * transaction (so a committed message always has its job and a rolled-back one never does).
 */
export async function enqueueMemoryExtraction(
  tx: Tx,
  scheduler: Scheduler,
  m: { id: string; workspaceId: string; authorUserId: string | null; taskId: string | null; text: string; createdAt: Date },
): Promise<void> {
  if (!m.authorUserId) return;
  const ev = await recordEvidence(tx, { workspaceId: m.workspaceId, userId: m.authorUserId, taskId: m.taskId, messageId: m.id, kind: 'MESSAGE', text: m.text, occurredAt: m.createdAt });
  const job: MemoryJob = { evidenceId: ev.id, extractorVersion: EXTRACTOR_VERSION };
  await scheduler.boss.send(MEMORY_QUEUE, job, { singletonKey: `${ev.id}:${EXTRACTOR_VERSION}`, db: fromPrisma(tx as never) });
}

/** Consumes extraction jobs in a worker process. A thrown error makes pg-boss retry the job. */
export async function startMemoryWorker(scheduler: Scheduler, deps: MemoryDeps): Promise<() => Promise<void>> {
  const id = await scheduler.boss.work<MemoryJob>(MEMORY_QUEUE, POLLING, async (jobs) => {
    for (const j of jobs) await extractEvidence(deps, j.data.evidenceId);
  });
  scheduler.track(MEMORY_QUEUE, id);
  return () => scheduler.boss.offWork(MEMORY_QUEUE);
}
