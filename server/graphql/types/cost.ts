// Cost accounting in the API: Task.cost and Workspace.costSummary, from the journal's
// per-call costs and the generation ledger (services/costs/task-cost.ts).
import { taskCost, workspaceCostSummary, type TaskCost } from '../../services/costs/task-cost.ts';
import { builder } from '../builder.ts';
import { TaskRef } from './task.ts';
import { WorkspaceRef } from './workspace.ts';

const TaskCostRef = builder.objectRef<TaskCost>('TaskCost');
builder.objectType(TaskCostRef, {
  description: "What a task cost so far: model calls (every call, failed and retried ones included) and generations (ledger charges), in US cents.",
  fields: (t) => ({
    modelCents: t.exposeFloat('modelCents'),
    generationCents: t.exposeFloat('generationCents'),
    totalCents: t.exposeFloat('totalCents'),
    modelCalls: t.exposeInt('modelCalls'),
    inputTokens: t.exposeInt('inputTokens'),
    outputTokens: t.exposeInt('outputTokens'),
    cachedTokens: t.exposeInt('cachedTokens', { description: 'Input tokens the provider served from its prompt cache.' }),
  }),
});

type Summary = Awaited<ReturnType<typeof workspaceCostSummary>>;
const CostSummaryRef = builder.objectRef<Summary>('WorkspaceCostSummary');
builder.objectType(CostSummaryRef, {
  description: "The workspace's spending on model calls and generations, and the cost per completed task.",
  fields: (t) => ({
    modelCents: t.exposeFloat('modelCents'),
    generationCents: t.exposeFloat('generationCents'),
    totalCents: t.exposeFloat('totalCents'),
    modelCalls: t.exposeInt('modelCalls'),
    tasks: t.exposeInt('tasks'),
    completedTasks: t.exposeInt('completedTasks'),
    centsPerCompletedTask: t.exposeFloat('centsPerCompletedTask', { description: 'All spending on completed tasks (failed and retried calls included) divided by their number.' }),
  }),
});

builder.objectFields(TaskRef, (t) => ({
  cost: t.field({ type: TaskCostRef, resolve: (task, _a, ctx) => taskCost(ctx.deps.prisma, task.id) }),
}));

builder.objectFields(WorkspaceRef, (t) => ({
  costSummary: t.field({ type: CostSummaryRef, resolve: (ws, _a, ctx) => workspaceCostSummary(ctx.deps.prisma, ws.id) }),
}));
