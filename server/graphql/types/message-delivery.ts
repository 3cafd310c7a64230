import { builder } from '../builder.ts';
import { MessageDeliveryStateEnum } from '../enums/message-delivery-state.ts';
import { MessageDeliveryRef } from '../refs.ts';

builder.objectType(MessageDeliveryRef, {
  description: 'What became of a message delivered to a task.',
  fields: (t) => ({
    state: t.field({ type: MessageDeliveryStateEnum, description: 'Delivered, read, acted on or withdrawn.', resolve: (d) => d.state }),
    turn: t.exposeInt('turn', { nullable: true, description: 'The number of the turn whose step read it.' }),
    step: t.exposeInt('step', { nullable: true, description: 'The index (in that turn) of the step that read it.' }),
  }),
});
