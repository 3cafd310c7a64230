import { builder } from '../builder.ts';
import { MessageRoleEnum } from '../enums/message-role.ts';
import { CardRef, MessageDeliveryRef, MessageRef, RouteDecisionRef, UserRef } from '../refs.ts';

builder.node(MessageRef, {
  id: { resolve: (m) => m.id },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => ctx.loaders.message.load(id))),
  fields: (t) => ({
    role: t.field({ type: MessageRoleEnum, resolve: (m) => m.role }),
    text: t.exposeString('text'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    author: t.field({
      type: UserRef,
      nullable: true,
      resolve: (m, _a, ctx) => (m.authorUserId ? ctx.loaders.user.load(m.authorUserId) : null),
    }),
    language: t.exposeString('language', { nullable: true }),
    route: t.field({
      type: RouteDecisionRef,
      nullable: true,
      description: 'The current routing decision of a user message.',
      resolve: (m, _a, ctx) => ctx.loaders.routeByMessage.load(m.id),
    }),
    card: t.field({ type: CardRef, nullable: true, resolve: (m, _a, ctx) => ctx.loaders.cardByMessage.load(m.id) }),
    delivery: t.field({
      type: MessageDeliveryRef,
      nullable: true,
      description: 'For a message delivered to a task: delivered, read by the agent (which step), acted on, or withdrawn.',
      resolve: async (m, _a, ctx) => (m.inboxItemId ? ctx.loaders.delivery.load(m.inboxItemId) : null),
    }),
  }),
});
