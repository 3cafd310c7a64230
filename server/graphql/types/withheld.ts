import { builder } from '../builder.ts';
import { WithheldReasonEnum } from '../enums/withheld-reason.ts';
import { WithheldRef } from '../refs.ts';

builder.objectType(WithheldRef, {
  description:
    'Content that reads as withheld: it was derived while a memory was in the agent\'s context, and that memory was forgotten. ' +
    'Its place, sequence number and hash stay; its text reads as a fixed marker.',
  fields: (t) => ({
    reason: t.field({ type: WithheldReasonEnum, description: 'Why it is withheld.', resolve: (w) => w.reason }),
    message: t.exposeString('message', { description: 'The reason in words.' }),
  }),
});
