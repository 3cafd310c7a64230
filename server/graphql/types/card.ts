import { builder } from '../builder.ts';
import { CardOptionRef, CardRef, type CardOption } from '../refs.ts';

builder.objectType(CardRef, {
  description: 'A structured question in the main thread; answer it with sendMessage(cardAction).',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.exposeString('kind'),
    prompt: t.exposeString('prompt'),
    status: t.exposeString('status'),
    choice: t.exposeString('choice', { nullable: true }),
    options: t.field({ type: [CardOptionRef], resolve: (c) => c.options as CardOption[] }),
  }),
});
