// Deciding where a message goes (no writes): deterministic routes first, then the router over the
// bounded task index, then the duplicate check before anything new is created. A card's answer is
// not a message: it routes the message that raised the card (answer-card.ts).
import { visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Deps } from '../deps.ts';
import { routeDeterministic } from '../../routing/deterministic.ts';
import { asDuplicateQuestion, likelyDuplicate, routeOffline } from '../../routing/offline-router.ts';
import { routeWithModel } from '../../routing/model-router.ts';
import { loadTaskIndex, toIndexEntry } from '../../routing/task-index.ts';
import type { RouteDecision, TaskIndexEntry } from '../../routing/types.ts';
import { loadTaskFor } from '../tasks/load-task.ts';
import { withConversationIntent } from './replies/converse.ts';

export const DUPLICATE_WINDOW = 50;

export type RoutingInput = {
  workspaceId: string;
  threadId: string;
  text: string;
  taskId?: string | null;
  objectId?: string | null;
};

export type Routed = { decision: RouteDecision; indexSize: number };

export async function routeMessage(deps: Deps, viewer: Viewer, input: RoutingInput, now = new Date()): Promise<Routed> {
  const { prisma } = deps;
  if (input.taskId) await loadTaskFor(prisma, viewer, input.taskId, 'write');
  const owners = input.objectId
    ? (
        await prisma.taskObjectRef.findMany({
          where: { objectId: input.objectId, task: { workspaceId: { in: visibleWorkspaceIds(viewer) }, archivedAt: null } },
          select: { taskId: true, task: { select: { title: true } } },
        })
      ).map((r) => ({ taskId: r.taskId, title: r.task.title }))
    : undefined;
  const det = routeDeterministic({ taskId: input.taskId, objectId: input.objectId, objectOwners: owners });
  if (det) return { decision: det, indexSize: 0 };

  const index = await loadTaskIndex(prisma, input.workspaceId, input.text, deps.embedder).catch(async (e) => {
    // An embedding outage degrades retrieval to words only; routing goes on.
    if (!deps.embedder) throw e;
    deps.log.warn('semantic retrieval failed; routing on words only', { error: (e as Error).message });
    return loadTaskIndex(prisma, input.workspaceId, input.text, null);
  });
  const models = deps.runtime.models;
  let decision: RouteDecision | null = null;
  if (!models.info.offline) {
    decision = await routeWithModel(models.chat('router'), input.text, index, now).catch((e) => {
      deps.log.warn('router model failed; using the offline router', { error: (e as Error).message });
      return null;
    });
  }
  decision ??= routeOffline(input.text, index, now);
  // A command or status question for a named task, or a lasting fact, that the router gave no intent (replies/converse.ts).
  decision = withConversationIntent(decision, input.text, index);
  if (decision.outcome === 'NEW_TASK') {
    const checked = await duplicateCheck(deps, input, decision, now);
    // A likely duplicate goes back to the router with the candidate: continue it or create anew?
    if (checked.outcome === 'CLARIFY' && decision.method === 'MODEL') {
      const dupEntry = index.find((e) => e.taskId === checked.candidates[0]?.taskId) ?? (await entryFor(deps, checked.candidates[0]!.taskId));
      const again = await routeWithModel(models.chat('router'), input.text, [dupEntry], now,
        'This request looks like the running task listed above. Answer EXISTING_TASK (task 1) to continue it, NEW_TASK to start separate work, or CLARIFY if you cannot tell.',
      ).catch(() => null);
      decision = again && again.outcome !== 'ANSWER' && again.outcome !== 'LIGHTWEIGHT_TASK' ? again : checked;
    } else decision = checked;
  }
  return { decision, indexSize: index.length };
}

/**
 * Before a persistent task is created: compare with the most recent running tasks. A likely
 * duplicate goes back as a choice between continuing it and creating a new task.
 */
export async function duplicateCheck(
  deps: Deps,
  input: Pick<RoutingInput, 'workspaceId' | 'text'>,
  decision: RouteDecision,
  now: Date,
): Promise<RouteDecision> {
  const running = await deps.prisma.task.findMany({
    where: { workspaceId: input.workspaceId, archivedAt: null, mergedIntoId: null, status: { in: ['QUEUED', 'RUNNING', 'WAITING', 'PAUSED'] } },
    orderBy: { lastActivityAt: 'desc' },
    take: DUPLICATE_WINDOW,
  });
  const entries = running.map(toIndexEntry);
  const dup = likelyDuplicate(input.text, entries, now);
  return dup ? asDuplicateQuestion(decision, dup) : decision;
}

async function entryFor(deps: Deps, taskId: string): Promise<TaskIndexEntry> {
  return toIndexEntry(await deps.prisma.task.findUniqueOrThrow({ where: { id: taskId } }));
}
