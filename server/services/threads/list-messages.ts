// Keyset page over a thread's messages, oldest first.
import type { Viewer } from '../../auth/viewer.ts';
import type { Thread } from '../../db/generated/client.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../../errors.ts';
import { afterKeyset, beforeKeyset, decodeKeyset } from '../keyset.ts';

export async function listMessages(
  deps: Deps,
  viewer: Viewer,
  thread: Thread,
  page: { after?: string | null; before?: string | null; limit: number; inverted: boolean },
) {
  if (thread.userId !== viewer.userId || !viewer.memberships.has(thread.workspaceId)) throw notFound('Thread');
  const and = [];
  if (page.after) and.push(afterKeyset(decodeKeyset(page.after)));
  if (page.before) and.push(beforeKeyset(decodeKeyset(page.before, 'before')));
  return deps.prisma.message.findMany({
    where: { threadId: thread.id, AND: and },
    orderBy: page.inverted ? [{ createdAt: 'desc' }, { id: 'desc' }] : [{ createdAt: 'asc' }, { id: 'asc' }],
    take: page.limit,
  });
}
