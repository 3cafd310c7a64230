// Scoring a scenario's workspace from what the database says happened: duplicate generations, cost,
// stale reads, forked copies, lost wake-ups, and whether the ledger balances.
import type { TestApp } from '../helpers/app.ts';
import { LOST_WAKEUP_MS } from './context.ts';

/** Generation jobs that are not over yet (money may still be on hold). */
export const LIVE_JOB = ['SUBMITTING', 'QUEUED', 'RUNNING', 'UNKNOWN'] as const;

type Prisma = TestApp['app']['deps']['prisma'];

export type WorkspaceScore = {
  jobs: number;
  duplicateGenerations: number;
  costCents: number;
  staleReads: number;
  forkedCopies: number;
  lostWakeups: number;
  /** What does not balance in the ledger (empty when every hold is settled once, by its job's end). */
  ledger: string[];
};

/**
 * Scores what the database says happened (not what the scenario believes). Exported so the metric
 * checks (./metric-checks.ts) can run it against planted faults.
 */
export async function scoreWorkspace(prisma: Prisma, workspaceId: string, now = new Date()): Promise<WorkspaceScore> {
  const jobs = await prisma.generationJob.findMany({ where: { workspaceId } });
  const taskIds = (await prisma.task.findMany({ where: { workspaceId }, select: { id: true } })).map((x) => x.id);

  // Duplicate generations: more results ordered for a step in one round than the step asked for
  // (a failed order does not count: ordering it again is the recovery). Jobs outside a checklist:
  // the same prompt of the same kind ordered again in one task.
  const counts = new Map<string, number>();
  for (const taskId of taskIds) {
    const rows = await prisma.taskChecklist.findMany({ where: { taskId }, orderBy: { version: 'asc' }, select: { items: true } });
    for (const r of rows) for (const i of (r.items ?? []) as { id: string; count?: number }[]) counts.set(`${taskId}|${i.id}`, i.count ?? 1);
  }
  const groups = new Map<string, { n: number; want: number }>();
  for (const j of jobs) {
    if (j.status === 'FAILED') continue;
    const p = (j.params ?? {}) as { checklistItemId?: string; checklistRound?: number };
    const k = p.checklistItemId ? `${j.taskId}|${p.checklistItemId}|${p.checklistRound ?? 0}` : `${j.taskId}|${j.kind}|${j.prompt}`;
    const want = p.checklistItemId ? (counts.get(`${j.taskId}|${p.checklistItemId}`) ?? 1) : 1;
    const g = groups.get(k) ?? { n: 0, want };
    g.n++;
    groups.set(k, g);
  }
  const duplicateGenerations = [...groups.values()].reduce((n, g) => n + Math.max(0, g.n - g.want), 0);

  const charged = await prisma.ledgerEntry.aggregate({ where: { workspaceId, kind: 'CHARGE' }, _sum: { amountCents: true } });

  // Stale reads: a write refused because it was based on an old version (CONFLICT), i.e. the agent
  // acted on a version it had read before someone else changed the object.
  const calls = await prisma.toolCall.findMany({ where: { taskId: { in: taskIds } }, select: { result: true, error: true } });
  const staleReads = calls.filter((c) => {
    const r = c.result as { ok?: boolean; error?: { code?: string } } | null;
    return (r?.ok === false && r.error?.code === 'CONFLICT') || /\bCONFLICT\b/.test(c.error ?? '');
  }).length;

  // Forked copies: several live documents, flows or collections of one name in a workspace — one
  // piece of work copied instead of edited.
  const forks = await prisma.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT COALESCE(SUM(c - 1), 0)::bigint AS n FROM (
       SELECT count(*) AS c FROM workspace_objects WHERE workspace_id = $1::uuid AND deleted_at IS NULL AND kind IN ('DOCUMENT', 'FLOW', 'COLLECTION')
        GROUP BY kind, name) g`,
    workspaceId,
  );

  // Lost wake-ups: a turn that waited longer than LOST_WAKEUP_MS for a worker (its wake-up was lost
  // and the watchdog had to re-send it), or that is still waiting that long.
  const turns = await prisma.turn.findMany({ where: { workspaceId }, select: { createdAt: true, startedAt: true, endedAt: true, status: true } });
  const lostWakeups = turns.filter((x) => {
    const picked = x.startedAt ?? (x.status === 'QUEUED' ? now : x.endedAt ?? now);
    return picked.getTime() - x.createdAt.getTime() > LOST_WAKEUP_MS;
  }).length;

  // The ledger: every ended job's hold settled exactly once — charged if it succeeded, released
  // otherwise — and nothing still held.
  const entries = await prisma.ledgerEntry.findMany({ where: { workspaceId } });
  const byJob = new Map<string, typeof entries>();
  for (const e of entries) byJob.set(e.jobId, [...(byJob.get(e.jobId) ?? []), e]);
  const ledger: string[] = [];
  for (const j of jobs) {
    const es = byJob.get(j.id) ?? [];
    const hold = es.filter((e) => e.kind === 'HOLD');
    const settled = es.filter((e) => e.kind !== 'HOLD');
    if (hold.length > 1) ledger.push(`job ${j.id}: ${hold.length} holds`);
    if (!hold.length) {
      if (settled.length) ledger.push(`job ${j.id}: settled without a hold`);
      continue;
    }
    if ((LIVE_JOB as readonly string[]).includes(j.status)) {
      ledger.push(`job ${j.id}: still ${j.status} with money on hold`);
      continue;
    }
    if (settled.length !== 1) {
      ledger.push(`job ${j.id} (${j.status}): settled ${settled.length} times`);
      continue;
    }
    const want = j.status === 'SUCCEEDED' ? 'CHARGE' : 'RELEASE';
    if (settled[0]!.kind !== want) ledger.push(`job ${j.id} (${j.status}): ${settled[0]!.kind}, expected ${want}`);
    if (settled[0]!.amountCents !== hold[0]!.amountCents) ledger.push(`job ${j.id}: held ${hold[0]!.amountCents}, settled ${settled[0]!.amountCents}`);
  }
  for (const [jobId] of byJob) if (!jobs.some((j) => j.id === jobId)) ledger.push(`ledger entries for unknown job ${jobId}`);

  return {
    jobs: jobs.length,
    duplicateGenerations,
    costCents: charged._sum.amountCents ?? 0,
    staleReads,
    forkedCopies: Number(forks[0]!.n),
    lostWakeups,
    ledger,
  };
}
