// A task's line of work for the API: every round of it, first to latest (domain/rounds.ts). Batched
// for the per-request loaders; rounds of other workspaces are never returned.
import { visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Task } from '../../db/generated/client.ts';
import { lineIdOf } from '../../store/tasks/rounds.ts';
import { uuidsOf } from '../batch.ts';
import type { Deps } from '../deps.ts';

/** A line of work: its rounds, first to latest (never empty for a visible task). */
export type TaskLine = { id: string; rounds: Task[] };

export { lineIdOf };

/** The rounds of each line (by the line's id, its first round's), first to latest. */
export async function loadLineRounds(deps: Deps, viewer: Viewer, lineIds: readonly string[]): Promise<Task[][]> {
  const ids = uuidsOf(lineIds);
  const rows = ids.length
    ? await deps.prisma.task.findMany({
        where: { OR: [{ id: { in: ids } }, { lineId: { in: ids } }], workspaceId: { in: visibleWorkspaceIds(viewer) } },
        orderBy: { round: 'asc' },
      })
    : [];
  const by = new Map<string, Task[]>();
  for (const r of rows) {
    const k = lineIdOf(r);
    by.set(k, [...(by.get(k) ?? []), r]);
  }
  return lineIds.map((id) => by.get(id) ?? []);
}
