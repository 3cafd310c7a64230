import { builder } from '../builder.ts';
import { UserRef } from '../refs.ts';

builder.node(UserRef, {
  id: { resolve: (u) => u.id },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => ctx.loaders.user.load(id))),
  fields: (t) => ({
    name: t.exposeString('name'),
    email: t.exposeString('email'),
  }),
});
