import { builder } from '../builder.ts';
import { CardOptionRef, CardRef, type CardOption } from '../refs.ts';

builder.objectType(CardRef, {
  description: 'A structured question about a message of the main thread; answer it with answerCard (the answer routes that message).',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.exposeString('kind'),
    prompt: t.exposeString('prompt'),
    status: t.exposeString('status', { description: 'OPEN, or RESOLVED once answered.' }),
    choice: t.exposeString('choice', { nullable: true, description: 'The id of the option chosen.' }),
    answeredAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true }),
    options: t.field({ type: [CardOptionRef], resolve: (c) => c.options as CardOption[] }),
  }),
});
