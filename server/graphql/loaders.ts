// Per-request batch loaders (no N+1). Every loader filters by the viewer's workspaces, so an id of
// another workspace loads as null: node(id) and nested fields cannot leak across workspaces.
import DataLoader from 'dataloader';
import { visibleWorkspaceIds } from '../auth/access.ts';
import type { Viewer } from '../auth/viewer.ts';
import type { Card, InboxItem, RouteDecision, Step, ToolCall, Turn } from '../db/generated/client.ts';
import type { Deps } from '../services/deps.ts';
import { usesOf, versionsOf, type MemoryUseView, type VersionView } from '../services/memory/browse-memories.ts';

/** A turn with its steps and their tool calls, as the journal fields read it. */
export type TurnWithSteps = Turn & { steps: (Step & { toolCalls: ToolCall[] })[] };

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
    /** Shared workspace objects (deleted ones too: their history stays readable). */
    object: new DataLoader<string, Awaited<ReturnType<typeof prisma.workspaceObject.findFirst>>>(async (ids) =>
      byId(ids, await prisma.workspaceObject.findMany({ where: { id: { in: valid(ids) }, workspaceId: { in: ws } } })),
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
    routeByMessage: new DataLoader<string, RouteDecision | null>(async (ids) => {
      const rows = await prisma.routeDecision.findMany({ where: { messageId: { in: [...ids] }, supersededAt: null }, orderBy: { createdAt: 'asc' } });
      return ids.map((id) => rows.filter((r) => r.messageId === id).at(-1) ?? null);
    }),
    cardByMessage: new DataLoader<string, Card | null>(async (ids) => {
      const rows = await prisma.card.findMany({ where: { messageId: { in: [...ids] } } });
      return ids.map((id) => rows.find((r) => r.messageId === id) ?? null);
    }),
    /** The state of a delivered message, from its inbox item and the step that read it. */
    delivery: new DataLoader<string, { state: string; turn: number | null; step: number | null } | null>(async (ids) => {
      const items = await prisma.inboxItem.findMany({ where: { id: { in: [...ids] } } });
      const turns = await prisma.turn.findMany({
        where: { id: { in: items.map((i) => i.consumedTurnId).filter((x): x is string => !!x) } },
        select: { id: true, number: true, steps: { select: { index: true, toolCalls: { select: { status: true } } } } },
      });
      return ids.map((id) => {
        const i = items.find((x) => x.id === id);
        if (!i) return null;
        if (i.withdrawnAt) return { state: 'WITHDRAWN', turn: null, step: null };
        if (!i.consumedTurnId) return { state: 'DELIVERED', turn: null, step: null };
        const turn = turns.find((t) => t.id === i.consumedTurnId);
        const step = turn?.steps.find((s) => s.index === i.consumedStep);
        const acted = step?.toolCalls.some((c) => c.status === 'DONE') ?? false;
        return { state: acted ? 'ACTED_ON' : 'READ', turn: turn?.number ?? null, step: i.consumedStep };
      });
    }),
    /** A memory's chain with provenance (callers check the memory's visibility first). */
    memoryVersions: new DataLoader<string, VersionView[]>((memoryIds) => versionsOf(prisma, memoryIds)),
    /** Where a memory's versions were used (callers check the memory's visibility first). */
    memoryUses: new DataLoader<string, MemoryUseView[]>((memoryIds) => usesOf(prisma, memoryIds)),
    /** Externally stored event payloads by content hash. Callers check visibility of the event first. */
    payload: new DataLoader<string, unknown>(async (hashes) => {
      const rows = await prisma.eventPayload.findMany({ where: { hash: { in: [...hashes] } } });
      const m = new Map(rows.map((r) => [r.hash, r.body]));
      return hashes.map((h) => m.get(h) ?? null);
    }),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
