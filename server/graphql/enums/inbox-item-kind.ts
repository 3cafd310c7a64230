import { builder } from '../builder.ts';

export const InboxItemKindEnum = builder.enumType('InboxItemKind', {
  description: "What reached a task's inbox.",
  values: {
    MESSAGE: { description: 'A message (from the thread, a task panel, or an answered checkpoint).' },
    SIGNAL: { description: 'A signal (see signal).' },
  } as const,
});
