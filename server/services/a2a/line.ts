// A line of work (an A2A context): the rounds of one piece of work, its first round's id naming it.
// A message sent to the context goes to the line's latest round, which continues it (a next round
// is started when that one has ended: services/tasks/next-round.ts).
import type { Viewer } from '../../auth/viewer.ts';
import type { Task } from '../../db/generated/client.ts';
import type { Deps } from '../deps.ts';
import { loadTaskFor } from '../tasks/load-task.ts';

export async function latestRoundOf(deps: Deps, viewer: Viewer, lineTaskId: string): Promise<Task> {
  const first = await loadTaskFor(deps.prisma, viewer, lineTaskId, 'read');
  const lineId = first.lineId ?? first.id;
  const latest = await deps.prisma.task.findFirst({
    where: { workspaceId: first.workspaceId, OR: [{ id: lineId }, { lineId }] },
    orderBy: [{ round: 'desc' }, { createdAt: 'desc' }],
  });
  return latest ?? first;
}
