import type { ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { encodeKeyset } from '../../services/keyset.ts';
import { listMessages } from '../../services/threads/list-messages.ts';
import { builder } from '../builder.ts';
import { cursorConnection } from '../pagination.ts';
import { MessageRef, ThreadRef, UserRef } from '../refs.ts';

builder.node(ThreadRef, {
  description: "A person's main thread in a workspace: one conversation, no sessions. Private to its owner.",
  id: { resolve: (t) => t.id },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => ctx.loaders.thread.load(id))),
  fields: (t) => ({
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was started.' }),
    owner: t.field({ type: UserRef, description: 'The person whose thread it is.', resolve: (th, _a, ctx) => ctx.loaders.user.load(th.userId).then((u) => u!) }),
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
