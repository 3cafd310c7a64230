// Answering a card of the main thread ("Which task is this for?", "continue it or start a new
// task?"). A card is a question about the message that raised it, so the answer is applied to that
// message: the message (its own words, never the option's label) is routed by code — delivered to
// the task picked, or made into a new task — its routing decision is replaced by the answer's, and
// the card records who answered, with what, under which idempotency key. An answer is final: the
// same answer again (a retry, another tab) returns what it did and changes nothing; another option
// on an answered card is refused (CONFLICT, CARD_ALREADY_ANSWERED). The answer, the delivery or
// new task and the card's state commit in one transaction.
import { z } from 'zod';
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import type { Tx } from '../../db/client.ts';
import type { Card } from '../../db/generated/client.ts';
import { badInput, conflict, ErrorReason, notFound } from '../../errors.ts';
import { routeDeterministic, type ResolvedCardOption } from '../../routing/deterministic.ts';
import type { RouteDecision } from '../../routing/types.ts';
import { lockCard } from '../../store/cards.ts';
import { checkIdempotencyKey, claimOf, clientKey, recordIdempotencyKey } from '../../store/idempotency.ts';
import type { Deps } from '../deps.ts';
import { parseInput } from '../validate.ts';
import { applyDecision, sendMessage, type SendMessageResult } from './send-message.ts';

export const AnswerCardInput = z.object({
  cardId: z.string().uuid(),
  optionId: z.string().trim().min(1).max(100),
  idempotencyKey: z.string().min(1).max(200),
});

export type AnswerCardResult = {
  cardId: string;
  /** The message that raised the card, now routed by the answer. */
  messageId: string;
  /** The message's routing decision made by the answer. */
  decisionId: string;
  decision: RouteDecision;
  /** The task the message went to (picked, or created from it). */
  taskId: string | null;
  /** True when the card already had this answer: nothing new was done. */
  duplicate: boolean;
};

type CardOption = ResolvedCardOption & { id: string };

export async function answerCard(deps: Deps, viewer: Viewer, raw: z.input<typeof AnswerCardInput>): Promise<AnswerCardResult> {
  return (await answer(deps, viewer, parseInput(AnswerCardInput, raw), null)).result;
}

/**
 * `sendMessage` with `cardAction`, the form that came before answerCard: answers the card the same
 * way. Its text was the option's label (or the message repeated); other words typed with the answer
 * are a message of their own, delivered to the task the answer chose, under the same key.
 */
export async function sendCardAnswer(
  deps: Deps,
  viewer: Viewer,
  input: { workspaceId: string; text?: string | null; cardAction: { cardId: string; optionId: string }; idempotencyKey: string },
): Promise<SendMessageResult> {
  const parsed = parseInput(AnswerCardInput, { ...input.cardAction, idempotencyKey: input.idempotencyKey });
  const { result, card, asked } = await answer(deps, viewer, parsed, input.workspaceId);
  const words = input.text?.trim() ?? '';
  const echo = !words || words === asked.trim() || (card.options as CardOption[]).some((o) => o.label === words);
  if (!echo && result.taskId) {
    const sent = await sendMessage(deps, viewer, { workspaceId: input.workspaceId, text: words, taskId: result.taskId, idempotencyKey: input.idempotencyKey });
    return { ...sent, cardId: card.id };
  }
  return { messageId: result.messageId, decisionId: result.decisionId, decision: result.decision, taskId: result.taskId, cardId: card.id, replyId: null, duplicate: result.duplicate };
}

async function answer(
  deps: Deps,
  viewer: Viewer,
  input: z.output<typeof AnswerCardInput>,
  workspaceId: string | null,
): Promise<{ result: AnswerCardResult; card: Card; asked: string }> {
  const found = await deps.prisma.card.findUnique({ where: { id: input.cardId }, select: { workspaceId: true, threadId: true } });
  const thread = found ? await deps.prisma.thread.findUnique({ where: { id: found.threadId }, select: { userId: true } }) : null;
  // A card lives in one person's main thread: for anyone else (or another workspace) it does not exist.
  if (!found || thread?.userId !== viewer.userId || !viewer.memberships.has(found.workspaceId) || (workspaceId && workspaceId !== found.workspaceId)) {
    throw notFound('Card');
  }
  requireWorkspace(viewer, found.workspaceId, 'write');
  // The key names this answer: the same key with another card or option is refused.
  const claim = claimOf('answerCard', { workspaceId: found.workspaceId, userId: viewer.userId }, input)!;
  await checkIdempotencyKey(deps.prisma, claim);
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    await lockCard(tx, input.cardId);
    const card = await tx.card.findUniqueOrThrow({ where: { id: input.cardId } });
    const asked = await tx.message.findUniqueOrThrow({ where: { id: card.messageId } });
    const options = card.options as CardOption[];
    if (card.status !== 'OPEN') {
      if (card.choice === input.optionId) return { result: await recorded(tx, card, true), card, asked: asked.text };
      const chosen = options.find((o) => o.id === card.choice);
      throw conflict(`This card was already answered: ${chosen?.label ?? card.choice ?? 'another option'}`, { reason: ErrorReason.CARD_ALREADY_ANSWERED, choice: card.choice });
    }
    const option = options.find((o) => o.id === input.optionId);
    if (!option) throw badInput(`optionId must be one of: ${options.map((o) => o.id).join(', ')}`, { argument: 'optionId' });
    const decision = routeDeterministic({ card: option });
    if (!decision) throw badInput('This option names no task to continue', { argument: 'optionId' });
    await recordIdempotencyKey(tx, claim);
    const effect = await applyDecision(deps, tx, emit, viewer, { workspaceId: card.workspaceId, threadId: card.threadId, messageId: asked.id, text: asked.text }, decision);
    // The question's decision (CLARIFY) stays on record, superseded by the answer's.
    await tx.routeDecision.updateMany({ where: { messageId: asked.id, supersededAt: null }, data: { supersededAt: new Date() } });
    const route = await tx.routeDecision.create({
      data: { messageId: asked.id, workspaceId: card.workspaceId, outcome: decision.outcome, method: decision.method, taskId: effect.taskId ?? decision.taskId, candidates: [], reason: decision.reason, indexSize: 0 },
    });
    if (effect.taskId) await tx.message.update({ where: { id: asked.id }, data: { taskId: effect.taskId, inboxItemId: effect.inboxItemId } });
    const answered = await tx.card.update({
      where: { id: card.id },
      data: { status: 'RESOLVED', choice: option.id, resolvedAt: new Date(), answeredById: viewer.userId, answerKey: clientKey(input.idempotencyKey) },
    });
    const result: AnswerCardResult = { cardId: card.id, messageId: asked.id, decisionId: route.id, decision: { ...decision, taskId: route.taskId }, taskId: effect.taskId, duplicate: false };
    return { result, card: answered, asked: asked.text };
  });
  return value;
}

/** What an earlier answer did: the message's current decision and where it went. */
async function recorded(tx: Tx, card: Card, duplicate: boolean): Promise<AnswerCardResult> {
  const message = await tx.message.findUniqueOrThrow({ where: { id: card.messageId }, select: { id: true, taskId: true } });
  const d = await tx.routeDecision.findFirstOrThrow({ where: { messageId: message.id, supersededAt: null }, orderBy: { createdAt: 'desc' } });
  return {
    cardId: card.id,
    messageId: message.id,
    decisionId: d.id,
    decision: { outcome: d.outcome, method: d.method, taskId: d.taskId, candidates: d.candidates as RouteDecision['candidates'], reason: d.reason },
    taskId: message.taskId,
    duplicate,
  };
}
