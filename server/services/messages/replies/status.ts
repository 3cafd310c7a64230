// Where tasks stand, read from persisted state only — status, the cards waiting for a person, the
// generation jobs not yet final, the checklist, the cost — for the thread's answers ("where's the
// video at?", "what are you working on?"). Reading never wakes a task: no turn, no model call.
import { opened } from '../../../store/sealing/open.ts';
import type { Db, PrismaClient } from '../../../db/client.ts';
import type { TaskSnapshot } from '../../../domain/replies/status.ts';
import { readChecklist } from '../../../store/checklist/write-checklist.ts';
import { LIVE_JOB_STATUSES } from '../../../store/journal/waits.ts';
import { ledgerSummary } from '../../../store/ledger-holds.ts';
import { taskCost } from '../../costs/task-cost.ts';

export const LIVE_TASK_STATUSES = ['QUEUED', 'RUNNING', 'WAITING', 'PAUSED'] as const;

/** Snapshots of the given tasks, in the order given (unknown ids are left out). */
export async function taskSnapshots(prisma: PrismaClient, taskIds: string[]): Promise<(TaskSnapshot & { id: string; language: string | null })[]> {
  if (!taskIds.length) return [];
  const [tasks, approvals, jobs] = await Promise.all([
    prisma.task.findMany({ where: { id: { in: taskIds } }, select: { id: true, title: true, status: true, statusReason: true, language: true } }),
    prisma.approval.findMany({ where: { taskId: { in: taskIds }, status: 'PENDING' }, orderBy: { createdAt: 'asc' }, select: { taskId: true, title: true } }).then((rows) => opened(prisma, rows)),
    prisma.generationJob.groupBy({ by: ['taskId'], where: { taskId: { in: taskIds }, status: { in: [...LIVE_JOB_STATUSES] } }, _count: { _all: true } }),
  ]);
  const out = [];
  for (const id of taskIds) {
    const t = tasks.find((x) => x.id === id);
    if (!t) continue;
    const [checklist, cost] = await Promise.all([readChecklist(prisma, id), taskCost(prisma, id)]);
    out.push({
      id,
      language: t.language,
      title: t.title,
      status: t.status,
      statusReason: t.statusReason,
      pendingApprovals: approvals.filter((a) => a.taskId === id).map((a) => ({ title: a.title })),
      liveJobs: jobs.find((j) => j.taskId === id)?._count._all ?? 0,
      checklist: checklist?.items.map((i) => ({ title: i.title, status: i.status })) ?? null,
      costCents: cost.totalCents,
    });
  }
  return out;
}

/** The workspace's live tasks (queued, running, waiting, paused), most recently active first. */
export async function liveTaskIds(prisma: PrismaClient, workspaceId: string, take = 8): Promise<string[]> {
  const rows = await prisma.task.findMany({
    where: { workspaceId, archivedAt: null, mergedIntoId: null, kind: 'PERSISTENT', status: { in: [...LIVE_TASK_STATUSES] } },
    orderBy: { lastActivityAt: 'desc' },
    take,
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** Paid work a cancel of the task would abandon: jobs running, money held, a plan budget approved. */
export async function paidWorkOf(prisma: Db, taskId: string): Promise<{ runningJobs: number; heldCents: number; approvedCents: number }> {
  const [runningJobs, ledger, task] = await Promise.all([
    prisma.generationJob.count({ where: { taskId, status: { in: [...LIVE_JOB_STATUSES] } } }),
    ledgerSummary(prisma, { taskId }),
    prisma.task.findUniqueOrThrow({ where: { id: taskId }, select: { approvedBudgetCents: true } }),
  ]);
  // An approved plan budget counts for what it still has to pay for (what was charged is spent).
  const approvedLeft = Math.max(0, (task.approvedBudgetCents ?? 0) - ledger.chargedCents - Math.max(0, ledger.outstandingCents));
  return { runningJobs, heldCents: Math.max(0, ledger.outstandingCents), approvedCents: approvedLeft };
}
