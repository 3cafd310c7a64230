import type { User } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';

export const UserRef = builder.objectRef<User>('User');

builder.node(UserRef, {
  id: { resolve: (u) => u.id },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => ctx.loaders.user.load(id))),
  fields: (t) => ({
    name: t.exposeString('name'),
    email: t.exposeString('email'),
  }),
});
