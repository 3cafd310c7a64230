// Threads and messages by id for the API's loaders. A main thread is private to its owner, and so
// are its messages: anyone else's load as null.
import { visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Message, Thread } from '../../db/generated/client.ts';
import { inKeyOrder, uuidsOf } from '../batch.ts';
import type { Deps } from '../deps.ts';

export async function loadThreads(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(Thread | null)[]> {
  return inKeyOrder(
    ids,
    await deps.prisma.thread.findMany({ where: { id: { in: uuidsOf(ids) }, workspaceId: { in: visibleWorkspaceIds(viewer) }, userId: viewer.userId } }),
  );
}

export async function loadMessages(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(Message | null)[]> {
  return inKeyOrder(
    ids,
    await deps.prisma.message.findMany({
      where: { id: { in: uuidsOf(ids) }, workspaceId: { in: visibleWorkspaceIds(viewer) }, thread: { userId: viewer.userId } },
    }),
  );
}
