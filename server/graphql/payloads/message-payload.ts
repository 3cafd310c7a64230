import type { Message } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';
import { MessageRef } from '../refs.ts';

export const MessagePayload = builder.objectRef<{ message: Message }>('MessagePayload').implement({
  description: 'A message after a change (re-routed, withdrawn or replaced).',
  fields: (t) => ({ message: t.field({ type: MessageRef, description: 'The message as it is now.', resolve: (p) => p.message }) }),
});
