import { getCard, getRouteDecision } from '../../services/messages/message-details.ts';
import type { sendMessage } from '../../services/messages/send-message.ts';
import { builder } from '../builder.ts';
import { CardRef, MessageRef, RouteDecisionRef, TaskRef } from '../refs.ts';

type SendResult = Awaited<ReturnType<typeof sendMessage>>;

export const SendMessagePayload = builder.objectRef<SendResult>('SendMessagePayload').implement({
  fields: (t) => ({
    message: t.field({ type: MessageRef, resolve: (r, _a, ctx) => ctx.loaders.message.load(r.messageId).then((m) => m!) }),
    route: t.field({ type: RouteDecisionRef, resolve: (r, _a, ctx) => getRouteDecision(ctx.deps, ctx.viewer, r.decisionId) }),
    task: t.field({ type: TaskRef, nullable: true, resolve: (r, _a, ctx) => (r.taskId ? ctx.loaders.task.load(r.taskId) : null) }),
    card: t.field({ type: CardRef, nullable: true, resolve: (r, _a, ctx) => (r.cardId ? getCard(ctx.deps, ctx.viewer, r.cardId) : null) }),
    reply: t.field({ type: MessageRef, nullable: true, resolve: (r, _a, ctx) => (r.replyId ? ctx.loaders.message.load(r.replyId) : null) }),
    duplicate: t.exposeBoolean('duplicate', { description: 'True when this idempotency key was used before (nothing new was created).' }),
  }),
});
