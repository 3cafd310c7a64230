// Approval cards of a workspace (or one task), newest first, keyset-paged over (createdAt, id).
import { opened } from '../../store/sealing/open.ts';
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../../errors.ts';
import { afterKeyset, beforeKeyset, decodeKeyset } from '../keyset.ts';

export type ApprovalStatusFilter = 'PENDING' | 'APPROVED' | 'REJECTED' | 'CANCELLED' | 'SUPERSEDED';
export type Page = { after?: string | null; before?: string | null; limit: number; inverted: boolean };

export async function listApprovals(
  deps: Deps,
  viewer: Viewer,
  where: { workspaceId: string; taskId?: string; statuses?: ApprovalStatusFilter[] | null },
  page: Page,
) {
  requireWorkspace(viewer, where.workspaceId, 'read');
  const and = [];
  if (page.after) and.push(beforeKeyset(decodeKeyset(page.after)));
  if (page.before) and.push(afterKeyset(decodeKeyset(page.before, 'before')));
  // A task's cards may be sealed (store/sealing): read opened, or withheld once forgotten.
  return opened(deps.prisma, await deps.prisma.approval.findMany({
    where: {
      workspaceId: where.workspaceId,
      ...(where.taskId ? { taskId: where.taskId } : {}),
      // A set of statuses: repeated values mean nothing (and a list of thousands costs the query).
      ...(where.statuses?.length ? { status: { in: [...new Set(where.statuses)] } } : {}),
      AND: and,
    },
    orderBy: page.inverted ? [{ createdAt: 'asc' }, { id: 'asc' }] : [{ createdAt: 'desc' }, { id: 'desc' }],
    take: page.limit,
  }));
}

export async function loadApprovalFor(deps: Deps, viewer: Viewer, id: string) {
  const a = /^[0-9a-f-]{36}$/i.test(id) ? await deps.prisma.approval.findUnique({ where: { id } }) : null;
  if (!a) throw notFound('Approval');
  requireWorkspace(viewer, a.workspaceId, 'read', 'Approval');
  return (await opened(deps.prisma, [a]))[0]!;
}
