import type { Message } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';
import { MessageRef } from '../refs.ts';

export const MessagePayload = builder.objectRef<{ message: Message }>('MessagePayload').implement({
  fields: (t) => ({ message: t.field({ type: MessageRef, resolve: (p) => p.message }) }),
});
