import { resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import type { Message, Thread } from '../../db/generated/client.ts';
import { encodeKeyset } from '../../services/keyset.ts';
import { listMessages } from '../../services/threads/list-messages.ts';
import { builder } from '../builder.ts';
import { MessageRoleEnum } from './enums.ts';
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
        resolveCursorConnection(
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
  }),
});
