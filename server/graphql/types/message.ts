import { builder } from '../builder.ts';
import { MessageRoleEnum } from '../enums/message-role.ts';
import { publicText } from '../public-ids.ts';
import { ApprovalRef, CardRef, MessageDeliveryRef, MessageRef, RouteDecisionRef, UserRef } from '../refs.ts';

builder.node(MessageRef, {
  description: 'A message of a main thread: what a person wrote, or what Atelier answered.',
  id: { resolve: (m) => m.id },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => ctx.loaders.message.load(id))),
  fields: (t) => ({
    role: t.field({ type: MessageRoleEnum, description: 'Who wrote it.', resolve: (m) => m.role }),
    text: t.string({ description: 'What it says (references to results carry global ids, e.g. [Poster 1](object:<id>)).', resolve: (m) => publicText(m.text) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was written.' }),
    author: t.field({
      type: UserRef,
      nullable: true,
      description: 'The person who wrote it; null for Atelier.',
      resolve: (m, _a, ctx) => (m.authorUserId ? ctx.loaders.user.load(m.authorUserId) : null),
    }),
    language: t.exposeString('language', { nullable: true, description: 'The language it is written in (ISO 639-1), when known.' }),
    route: t.field({
      type: RouteDecisionRef,
      nullable: true,
      description: 'The current routing decision of a user message.',
      resolve: (m, _a, ctx) => ctx.loaders.routeByMessage.load(m.id),
    }),
    approval: t.field({
      type: ApprovalRef,
      nullable: true,
      description: 'The question (an Approval of kind QUESTION) this message raised: where it goes, or whether to stop paid work. Answer it with resolveApproval.',
      resolve: (m, _a, ctx) => ctx.loaders.cardByMessage.load(m.id),
    }),
    card: t.field({
      type: CardRef,
      nullable: true,
      description: 'The question this message raised, under its former name.',
      deprecationReason: 'Use approval (the same question as an Approval of kind QUESTION).',
      resolve: (m, _a, ctx) => ctx.loaders.cardByMessage.load(m.id),
    }),
    delivery: t.field({
      type: MessageDeliveryRef,
      nullable: true,
      description: 'For a message delivered to a task: delivered, read by the agent (which step), acted on, or withdrawn.',
      resolve: async (m, _a, ctx) => (m.inboxItemId ? ctx.loaders.delivery.load(m.inboxItemId) : null),
    }),
  }),
});
