import { builder } from '../builder.ts';
import { MessageDeliveryRef } from '../refs.ts';

builder.objectType(MessageDeliveryRef, {
  fields: (t) => ({
    state: t.exposeString('state', { description: 'DELIVERED, READ, ACTED_ON or WITHDRAWN' }),
    turn: t.exposeInt('turn', { nullable: true }),
    step: t.exposeInt('step', { nullable: true }),
  }),
});
