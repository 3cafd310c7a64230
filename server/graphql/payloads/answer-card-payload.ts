import { getCard, getRouteDecision } from '../../services/messages/message-details.ts';
import type { answerCard } from '../../services/messages/answer-card.ts';
import { builder } from '../builder.ts';
import { ApprovalRef, CardRef, MessageRef, RouteDecisionRef, TaskRef } from '../refs.ts';

type Answered = Awaited<ReturnType<typeof answerCard>>;

export const AnswerCardPayload = builder.objectRef<Answered>('AnswerCardPayload').implement({
  description: 'A question of the main thread answered (answerCard, the former way to answer a QUESTION approval).',
  fields: (t) => ({
    approval: t.field({
      type: ApprovalRef,
      description: 'The question, answered (status APPROVED, choice).',
      resolve: (r, _a, ctx) => getCard(ctx.deps, ctx.viewer, r.cardId).then((c) => c!),
    }),
    card: t.field({
      type: CardRef,
      description: 'The question, answered, under its former name (status RESOLVED, choice).',
      deprecationReason: 'Use approval.',
      resolve: (r, _a, ctx) => getCard(ctx.deps, ctx.viewer, r.cardId).then((c) => c!),
    }),
    message: t.field({
      type: MessageRef,
      description: 'The message that raised the question, routed by the answer (its text unchanged).',
      resolve: (r, _a, ctx) => ctx.loaders.message.load(r.messageId).then((m) => m!),
    }),
    route: t.field({ type: RouteDecisionRef, description: "The message's routing decision made by the answer.", resolve: (r, _a, ctx) => getRouteDecision(ctx.deps, ctx.viewer, r.decisionId) }),
    task: t.field({
      type: TaskRef,
      nullable: true,
      description: 'The task the message went to: the one picked, or the one created from the message.',
      resolve: (r, _a, ctx) => (r.taskId ? ctx.loaders.task.load(r.taskId) : null),
    }),
    duplicate: t.exposeBoolean('duplicate', { description: 'True when the question already had this answer (a retry): nothing new was done.' }),
  }),
});
