import { builder } from '../builder.ts';

export const MessageRoleEnum = builder.enumType('MessageRole', {
  description: 'Who wrote a message of the main thread.',
  values: {
    USER: { description: 'The person whose thread it is.' },
    ASSISTANT: { description: 'Atelier: an answer, an acknowledgement, a question.' },
    SYSTEM: { description: 'A notice of the system.' },
  } as const,
});
