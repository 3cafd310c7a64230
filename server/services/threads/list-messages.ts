// Keyset page over a thread's messages, oldest first. Cursor = (createdAt, id).
import type { Viewer } from '../../auth/viewer.ts';
import type { Thread } from '../../db/generated/client.ts';
import type { Deps } from '../../deps.ts';
import { badInput, notFound } from '../../errors.ts';

function decode(c: string) {
  const [iso, id] = c.split('|');
  const createdAt = new Date(iso ?? '');
  if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(createdAt.getTime())) throw badInput('Invalid cursor');
  return { createdAt, id };
}

export async function listMessages(
  deps: Deps,
  viewer: Viewer,
  thread: Thread,
  page: { after?: string | null; before?: string | null; limit: number; inverted: boolean },
) {
  if (thread.userId !== viewer.userId || !viewer.memberships.has(thread.workspaceId)) throw notFound('Thread');
  const and = [];
  if (page.after) {
    const c = decode(page.after);
    and.push({ OR: [{ createdAt: { gt: c.createdAt } }, { createdAt: c.createdAt, id: { gt: c.id } }] });
  }
  if (page.before) {
    const c = decode(page.before);
    and.push({ OR: [{ createdAt: { lt: c.createdAt } }, { createdAt: c.createdAt, id: { lt: c.id } }] });
  }
  return deps.prisma.message.findMany({
    where: { threadId: thread.id, AND: and },
    orderBy: page.inverted ? [{ createdAt: 'desc' }, { id: 'desc' }] : [{ createdAt: 'asc' }, { id: 'asc' }],
    take: page.limit,
  });
}
