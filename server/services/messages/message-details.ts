// What the thread shows beside a message: its current routing decision, its card and, for a message
// delivered to a task, whether a step read it. The caller has loaded the message (or received it
// from sendMessage) through the viewer's visibility rules first.
import type { Viewer } from '../../auth/viewer.ts';
import type { Card, RouteDecision } from '../../db/generated/client.ts';
import type { Deps } from '../deps.ts';

export type Delivery = { state: 'DELIVERED' | 'READ' | 'ACTED_ON' | 'WITHDRAWN'; turn: number | null; step: number | null };

/** The current (not superseded) decision of each message; the newest wins should two exist. */
export async function loadRoutesOfMessages(deps: Deps, _viewer: Viewer, messageIds: readonly string[]): Promise<(RouteDecision | null)[]> {
  const rows = await deps.prisma.routeDecision.findMany({ where: { messageId: { in: [...messageIds] }, supersededAt: null }, orderBy: { createdAt: 'asc' } });
  return messageIds.map((id) => rows.filter((r) => r.messageId === id).at(-1) ?? null);
}

export async function loadCardsOfMessages(deps: Deps, _viewer: Viewer, messageIds: readonly string[]): Promise<(Card | null)[]> {
  const rows = await deps.prisma.card.findMany({ where: { messageId: { in: [...messageIds] } } });
  return messageIds.map((id) => rows.find((r) => r.messageId === id) ?? null);
}

/** The state of delivered messages, by inbox item: from the item and the step that read it. */
export async function loadDeliveries(deps: Deps, _viewer: Viewer, inboxItemIds: readonly string[]): Promise<(Delivery | null)[]> {
  const items = await deps.prisma.inboxItem.findMany({ where: { id: { in: [...inboxItemIds] } } });
  const turns = await deps.prisma.turn.findMany({
    where: { id: { in: items.map((i) => i.consumedTurnId).filter((x): x is string => !!x) } },
    select: { id: true, number: true, steps: { select: { index: true, toolCalls: { select: { status: true } } } } },
  });
  return inboxItemIds.map((id) => {
    const i = items.find((x) => x.id === id);
    if (!i) return null;
    if (i.withdrawnAt) return { state: 'WITHDRAWN', turn: null, step: null };
    if (!i.consumedTurnId) return { state: 'DELIVERED', turn: null, step: null };
    const turn = turns.find((t) => t.id === i.consumedTurnId);
    const step = turn?.steps.find((s) => s.index === i.consumedStep);
    const acted = step?.toolCalls.some((c) => c.status === 'DONE') ?? false;
    return { state: acted ? 'ACTED_ON' : 'READ', turn: turn?.number ?? null, step: i.consumedStep };
  });
}

/** The decision sendMessage just recorded (by the id it returned). */
export const getRouteDecision = (deps: Deps, _viewer: Viewer, decisionId: string): Promise<RouteDecision> =>
  deps.prisma.routeDecision.findUniqueOrThrow({ where: { id: decisionId } });

/** The card sendMessage just posted (by the id it returned). */
export const getCard = (deps: Deps, _viewer: Viewer, cardId: string): Promise<Card | null> => deps.prisma.card.findUnique({ where: { id: cardId } });
