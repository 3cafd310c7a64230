import { builder } from '../builder.ts';
import { InboxItemRef } from '../refs.ts';

builder.objectType(InboxItemRef, {
  description: 'A message or signal delivered to the task. Delivered is not processed: consumedStep says which step read it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.exposeString('kind'),
    signal: t.exposeString('signal', { nullable: true }),
    text: t.exposeString('text', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    consumedAt: t.expose('consumedAt', { type: 'DateTime', nullable: true }),
    consumedStep: t.exposeInt('consumedStep', { nullable: true }),
  }),
});
