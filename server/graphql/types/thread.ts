import type { ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import type { Message, Thread } from '../../db/generated/client.ts';
import { encodeKeyset } from '../../services/keyset.ts';
import { listMessages } from '../../services/threads/list-messages.ts';
import { builder } from '../builder.ts';
import { cursorConnection } from '../pagination.ts';
import { MessageRoleEnum } from './enums.ts';
import { CardRef, RouteDecisionRef } from './routing.ts';
import { UserRef } from './user.ts';

export const ThreadRef = builder.objectRef<Thread>('Thread');
export const MessageRef = builder.objectRef<Message>('Message');

builder.node(ThreadRef, {
  id: { resolve: (t) => t.id },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => ctx.loaders.thread.load(id))),
  fields: (t) => ({
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    owner: t.field({ type: UserRef, resolve: (th, _a, ctx) => ctx.loaders.user.load(th.userId).then((u) => u!) }),
    messages: t.connection({
      type: MessageRef,
      description: 'Messages, oldest first.',
      resolve: (th, args, ctx) =>
        cursorConnection(
          { args, toCursor: encodeKeyset, defaultSize: 50, maxSize: 200 },
          (page: ResolveCursorConnectionArgs) => listMessages(ctx.deps, ctx.viewer, th, page),
        ),
    }),
  }),
});

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
      type: DeliveryRef,
      nullable: true,
      description: 'For a message delivered to a task: delivered, read by the agent (which step), acted on, or withdrawn.',
      resolve: async (m, _a, ctx) => (m.inboxItemId ? ctx.loaders.delivery.load(m.inboxItemId) : null),
    }),
  }),
});

type Delivery = { state: string; turn: number | null; step: number | null };
const DeliveryRef = builder.objectRef<Delivery>('MessageDelivery');
builder.objectType(DeliveryRef, {
  fields: (t) => ({
    state: t.exposeString('state', { description: 'DELIVERED, READ, ACTED_ON or WITHDRAWN' }),
    turn: t.exposeInt('turn', { nullable: true }),
    step: t.exposeInt('step', { nullable: true }),
  }),
});
