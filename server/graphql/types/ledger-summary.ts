import { builder } from '../builder.ts';
import { LedgerSummaryRef } from '../refs.ts';

builder.objectType(LedgerSummaryRef, {
  description: 'Money of a task: quotes held, charged on delivery, released on failure; outstanding = still on hold.',
  fields: (t) => ({
    heldCents: t.exposeInt('heldCents'),
    chargedCents: t.exposeInt('chargedCents'),
    releasedCents: t.exposeInt('releasedCents'),
    outstandingCents: t.exposeInt('outstandingCents'),
  }),
});
