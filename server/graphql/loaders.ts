// Per-request batch loaders (no N+1). Every loader filters by the viewer's workspaces, so an id of
// another workspace loads as null: node(id) and nested fields cannot leak across workspaces.
import DataLoader from 'dataloader';
import { visibleWorkspaceIds } from '../auth/access.ts';
import type { Viewer } from '../auth/viewer.ts';
import type { InboxItem } from '../db/generated/client.ts';
import type { Deps } from '../deps.ts';
import type { TurnWithSteps } from './types/journal.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function byId<T extends { id: string }>(ids: readonly string[], rows: T[]): (T | null)[] {
  const m = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => m.get(id) ?? null);
}

export function createLoaders(deps: Deps, viewer: Viewer) {
  const { prisma } = deps;
  const ws = visibleWorkspaceIds(viewer);
  const valid = (ids: readonly string[]) => ids.filter((id) => UUID.test(id));
  return {
    workspace: new DataLoader<string, Awaited<ReturnType<typeof prisma.workspace.findFirst>>>(async (ids) =>
      byId(ids, await prisma.workspace.findMany({ where: { id: { in: valid(ids).filter((i) => ws.includes(i)) } } })),
    ),
    task: new DataLoader<string, Awaited<ReturnType<typeof prisma.task.findFirst>>>(async (ids) =>
      byId(ids, await prisma.task.findMany({ where: { id: { in: valid(ids) }, workspaceId: { in: ws } } })),
    ),
    /** Users who share a visible workspace with the viewer. */
    user: new DataLoader<string, Awaited<ReturnType<typeof prisma.user.findFirst>>>(async (ids) =>
      byId(
        ids,
        await prisma.user.findMany({
          where: { id: { in: valid(ids) }, memberships: { some: { workspaceId: { in: ws } } } },
        }),
      ),
    ),
    /** A main thread is private to its owner. */
    thread: new DataLoader<string, Awaited<ReturnType<typeof prisma.thread.findFirst>>>(async (ids) =>
      byId(
        ids,
        await prisma.thread.findMany({ where: { id: { in: valid(ids) }, workspaceId: { in: ws }, userId: viewer.userId } }),
      ),
    ),
    message: new DataLoader<string, Awaited<ReturnType<typeof prisma.message.findFirst>>>(async (ids) =>
      byId(
        ids,
        await prisma.message.findMany({
          where: { id: { in: valid(ids) }, workspaceId: { in: ws }, thread: { userId: viewer.userId } },
        }),
      ),
    ),
    /** A task's turns with their steps and tool calls (callers check the task's visibility first). */
    turnsByTask: new DataLoader<string, TurnWithSteps[]>(async (taskIds) => {
      const rows = await prisma.turn.findMany({
        where: { taskId: { in: [...taskIds] } },
        orderBy: { number: 'asc' },
        include: { steps: { orderBy: { index: 'asc' }, include: { toolCalls: { orderBy: { callIndex: 'asc' } } } } },
      });
      return taskIds.map((id) => rows.filter((r) => r.taskId === id));
    }),
    inboxByTask: new DataLoader<string, InboxItem[]>(async (taskIds) => {
      const rows = await prisma.inboxItem.findMany({ where: { taskId: { in: [...taskIds] } }, orderBy: { createdAt: 'asc' } });
      return taskIds.map((id) => rows.filter((r) => r.taskId === id));
    }),
    /** Externally stored event payloads by content hash. Callers check visibility of the event first. */
    payload: new DataLoader<string, unknown>(async (hashes) => {
      const rows = await prisma.eventPayload.findMany({ where: { hash: { in: [...hashes] } } });
      const m = new Map(rows.map((r) => [r.hash, r.body]));
      return hashes.map((h) => m.get(h) ?? null);
    }),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
