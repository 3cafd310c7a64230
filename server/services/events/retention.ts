// The event log's retention sweep (store/retention.ts says what goes and why it is safe).
import type { Db } from '../../db/client.ts';
import type { Logger } from '../../log.ts';
import { pruneEndedHistory, type PruneReport } from '../../store/retention.ts';

const DAY_MS = 86_400_000;

/** Removes the folded history of tasks that ended more than `days` ago; logs what it removed. */
export async function sweepEventRetention(db: Db, days: number, log: Logger, now = new Date()): Promise<PruneReport> {
  const report = await pruneEndedHistory(db, { before: new Date(now.getTime() - days * DAY_MS) });
  if (report.events) log.info('event retention removed the folded history of ended tasks', { days, ...report });
  return report;
}
