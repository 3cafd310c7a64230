import { builder } from '../builder.ts';
import { UserRef } from '../refs.ts';

builder.node(UserRef, {
  description: 'A person who shares a workspace with the caller.',
  id: { resolve: (u) => u.id },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => ctx.loaders.user.load(id))),
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Their name.' }),
    email: t.exposeString('email', { description: 'Their email address.' }),
  }),
});
