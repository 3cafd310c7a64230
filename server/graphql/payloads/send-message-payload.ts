import { getCard, getRouteDecision } from '../../services/messages/message-details.ts';
import type { sendMessage } from '../../services/messages/send-message.ts';
import { builder } from '../builder.ts';
import { ApprovalRef, CardRef, MessageRef, RouteDecisionRef, TaskRef } from '../refs.ts';

type SendResult = Awaited<ReturnType<typeof sendMessage>>;

export const SendMessagePayload = builder.objectRef<SendResult>('SendMessagePayload').implement({
  description: 'What became of a message written in the main thread.',
  fields: (t) => ({
    message: t.field({ type: MessageRef, description: 'The message, as stored.', resolve: (r, _a, ctx) => ctx.loaders.message.load(r.messageId).then((m) => m!) }),
    route: t.field({ type: RouteDecisionRef, description: 'Where it went and why.', resolve: (r, _a, ctx) => getRouteDecision(ctx.deps, ctx.viewer, r.decisionId) }),
    task: t.field({ type: TaskRef, nullable: true, description: 'The task it went to (existing, a next round, or created from it); null when none.', resolve: (r, _a, ctx) => (r.taskId ? ctx.loaders.task.load(r.taskId) : null) }),
    approval: t.field({
      type: ApprovalRef,
      nullable: true,
      description: 'When it was unclear where it goes (route CLARIFY) or a stop would abandon paid work: the question (an Approval of kind QUESTION) to answer with resolveApproval.',
      resolve: (r, _a, ctx) => (r.cardId ? getCard(ctx.deps, ctx.viewer, r.cardId) : null),
    }),
    card: t.field({
      type: CardRef,
      nullable: true,
      description: 'The question, under its former name.',
      deprecationReason: 'Use approval (the same question as an Approval of kind QUESTION).',
      resolve: (r, _a, ctx) => (r.cardId ? getCard(ctx.deps, ctx.viewer, r.cardId) : null),
    }),
    reply: t.field({ type: MessageRef, nullable: true, description: "Atelier's answer in the thread (an answer, an acknowledgement), when it wrote one.", resolve: (r, _a, ctx) => (r.replyId ? ctx.loaders.message.load(r.replyId) : null) }),
    duplicate: t.exposeBoolean('duplicate', { description: 'True when this idempotency key was used before (nothing new was created).' }),
  }),
});
