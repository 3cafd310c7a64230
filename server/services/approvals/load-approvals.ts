// Approvals by id for node(id). An approval is a decision a person takes: an approval card of a task
// (the approvals table), or a question about a message of the person's own main thread (the cards
// table) — one kind of thing for the API, QUESTION being its kind. Approvals of other workspaces, and
// questions in anyone else's thread, load as null.
import { opened } from '../../store/sealing/open.ts';
import { visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Approval, Card } from '../../db/generated/client.ts';
import { inKeyOrder, uuidsOf } from '../batch.ts';
import type { Deps } from '../deps.ts';

/** What the API calls an approval: a task's approval card, or a question of a main thread. */
export type ApprovalOrQuestion = Approval | Card;

/** A question of the main thread (a row of the cards table), told apart by its prompt. */
export const isQuestion = (a: ApprovalOrQuestion): a is Card => 'prompt' in a;

export async function loadApprovals(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(ApprovalOrQuestion | null)[]> {
  const keys = uuidsOf(ids);
  // A task's card may be sealed (store/sealing): read opened, or withheld once forgotten.
  const approvals = await opened(deps.prisma, await deps.prisma.approval.findMany({ where: { id: { in: keys }, workspaceId: { in: visibleWorkspaceIds(viewer) } } }));
  const missing = keys.filter((id) => !approvals.some((a) => a.id === id));
  const questions = missing.length ? await loadQuestions(deps, viewer, missing) : [];
  return inKeyOrder<ApprovalOrQuestion>(ids, [...approvals, ...questions]);
}

/** Questions by id, only those in the viewer's own main thread of a workspace they belong to. */
export async function loadQuestions(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<Card[]> {
  const cards = await deps.prisma.card.findMany({ where: { id: { in: uuidsOf(ids) }, workspaceId: { in: visibleWorkspaceIds(viewer) } } });
  if (!cards.length) return [];
  const own = await deps.prisma.thread.findMany({ where: { id: { in: cards.map((c) => c.threadId) }, userId: viewer.userId }, select: { id: true } });
  return cards.filter((c) => own.some((t) => t.id === c.threadId));
}
