// A task's execution journal (turns with their steps and tool calls) and its inbox, for many tasks
// at once. The caller has loaded each task through the viewer's visibility rules first.
import type { Viewer } from '../../auth/viewer.ts';
import type { InboxItem, Step, ToolCall, Turn } from '../../db/generated/client.ts';
import type { Deps } from '../deps.ts';
import { opened } from '../../store/sealing/open.ts';

/** A turn with its steps and their tool calls, as the journal fields read it. */
export type TurnWithSteps = Turn & { steps: StepWithCalls[] };
export type StepWithCalls = Step & { toolCalls: ToolCall[] };

export async function loadTurnsOfTasks(deps: Deps, _viewer: Viewer, taskIds: readonly string[]): Promise<TurnWithSteps[][]> {
  // Decisions and tool calls a task made with memory in its context are sealed: opened here, and
  // read as withheld once what they relied on was forgotten.
  const rows = await opened(deps.prisma, await deps.prisma.turn.findMany({
    where: { taskId: { in: [...taskIds] } },
    orderBy: { number: 'asc' },
    include: { steps: { orderBy: { index: 'asc' }, include: { toolCalls: { orderBy: { callIndex: 'asc' } } } } },
  }));
  return taskIds.map((id) => rows.filter((r) => r.taskId === id));
}

export async function loadInboxOfTasks(deps: Deps, _viewer: Viewer, taskIds: readonly string[]): Promise<InboxItem[][]> {
  const rows = await deps.prisma.inboxItem.findMany({ where: { taskId: { in: [...taskIds] } }, orderBy: { createdAt: 'asc' } });
  return taskIds.map((id) => rows.filter((r) => r.taskId === id));
}
