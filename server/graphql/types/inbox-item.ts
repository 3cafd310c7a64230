import { builder } from '../builder.ts';
import { InboxItemKindEnum } from '../enums/inbox-item-kind.ts';
import { InboxSignalEnum } from '../enums/inbox-signal.ts';
import { globalId } from '../ids.ts';
import { publicText } from '../public-ids.ts';
import { InboxItemRef } from '../refs.ts';

const SIGNALS = ['PAUSE', 'RESUME', 'CANCEL', 'REVISE', 'ADD_CONTEXT', 'JOB_RESULT', 'FOLLOW_UP'] as const;

builder.objectType(InboxItemRef, {
  description: 'A message or signal delivered to the task. Delivered is not processed: consumedStep says which step read it.',
  fields: (t) => ({
    id: t.id({ description: "The item's global id.", resolve: (i) => globalId('InboxItem', i.id) }),
    kind: t.field({ type: InboxItemKindEnum, description: 'A message or a signal.', resolve: (i) => i.kind }),
    signal: t.field({
      type: InboxSignalEnum,
      nullable: true,
      description: 'For a signal: which one.',
      resolve: (i) => (i.signal && (SIGNALS as readonly string[]).includes(i.signal) ? (i.signal as (typeof SIGNALS)[number]) : null),
    }),
    text: t.string({ nullable: true, description: 'The words it carries (a message, a revision, a generation result); references carry global ids.', resolve: (i) => (i.text === null ? null : publicText(i.text)) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was delivered.' }),
    consumedAt: t.expose('consumedAt', { type: 'DateTime', nullable: true, description: 'When a step read it.' }),
    consumedStep: t.exposeInt('consumedStep', { nullable: true, description: 'The index (in its turn) of the step that read it.' }),
  }),
});
