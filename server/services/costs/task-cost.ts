// Cost accounting: what a task cost, from persisted rows only. Model calls: every step's
// costCents (each step row is one model call; failed and retried work is in the journal too, since
// a retried step is a new step) plus the model-written compaction summaries. Generations: the
// ledger's charges for the task (holds released on failure cost nothing).
import type { PrismaClient } from '../../db/client.ts';

export type TaskCost = {
  modelCents: number;
  generationCents: number;
  totalCents: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
};

function tokens(u: unknown): { i: number; o: number; c: number } {
  const m = (u ?? {}) as { input_tokens?: number; output_tokens?: number; input_token_details?: { cache_read?: number } };
  return { i: m.input_tokens ?? 0, o: m.output_tokens ?? 0, c: m.input_token_details?.cache_read ?? 0 };
}

export async function taskCost(prisma: PrismaClient, taskId: string): Promise<TaskCost> {
  const [steps, summaries, generationCents] = await Promise.all([
    prisma.step.findMany({ where: { taskId }, select: { usage: true, costCents: true } }),
    prisma.contextSummary.findMany({ where: { taskId, stage: 3 }, select: { usage: true, model: true } }),
    generationCentsOf(prisma, [taskId]),
  ]);
  const c: TaskCost = { modelCents: 0, generationCents: generationCents.get(taskId) ?? 0, totalCents: 0, modelCalls: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  for (const s of steps) {
    const t = tokens(s.usage);
    c.modelCalls++;
    c.modelCents += s.costCents ?? 0;
    c.inputTokens += t.i;
    c.outputTokens += t.o;
    c.cachedTokens += t.c;
  }
  for (const s of summaries) {
    if (s.model === 'extractive') continue;
    const t = tokens(s.usage);
    c.modelCalls++;
    c.modelCents += (s.usage as { costCents?: number } | null)?.costCents ?? 0;
    c.inputTokens += t.i;
    c.outputTokens += t.o;
    c.cachedTokens += t.c;
  }
  c.totalCents = c.modelCents + c.generationCents;
  return c;
}

/** Generation cents per task from the ledger. */
export async function generationCentsOf(prisma: PrismaClient, taskIds: string[]): Promise<Map<string, number>> {
  if (!taskIds.length) return new Map();
  const rows = await prisma.ledgerEntry.groupBy({ by: ['taskId'], where: { taskId: { in: taskIds }, kind: 'CHARGE' }, _sum: { amountCents: true } });
  return new Map(rows.map((r) => [r.taskId!, r._sum.amountCents ?? 0]));
}

/** A workspace's cost summary: its tasks' model and generation cost (completed tasks counted apart). */
export async function workspaceCostSummary(prisma: PrismaClient, workspaceId: string) {
  const tasks = await prisma.task.findMany({ where: { workspaceId }, select: { id: true, status: true } });
  const ids = tasks.map((t) => t.id);
  const [steps, gen] = await Promise.all([
    prisma.step.groupBy({ by: ['taskId'], where: { taskId: { in: ids } }, _sum: { costCents: true }, _count: { _all: true } }),
    generationCentsOf(prisma, ids),
  ]);
  const model = new Map(steps.map((s) => [s.taskId, { cents: s._sum.costCents ?? 0, calls: s._count._all }]));
  const completed = tasks.filter((t) => t.status === 'COMPLETED');
  const sum = (list: typeof tasks) => list.reduce((n, t) => n + (model.get(t.id)?.cents ?? 0) + (gen.get(t.id) ?? 0), 0);
  const modelCents = [...model.values()].reduce((n, m) => n + m.cents, 0);
  const generationCents = [...gen.values()].reduce((n, c) => n + c, 0);
  return {
    modelCents,
    generationCents,
    totalCents: modelCents + generationCents,
    modelCalls: [...model.values()].reduce((n, m) => n + m.calls, 0),
    tasks: tasks.length,
    completedTasks: completed.length,
    /** Everything spent on completed tasks (failed and retried calls included), per completed task. */
    centsPerCompletedTask: completed.length ? sum(completed) / completed.length : 0,
  };
}
