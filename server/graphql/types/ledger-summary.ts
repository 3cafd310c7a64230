import { builder } from '../builder.ts';
import { LedgerSummaryRef } from '../refs.ts';

builder.objectType(LedgerSummaryRef, {
  description: 'Money of a task: quotes held, charged on delivery, released on failure; outstanding = still on hold.',
  fields: (t) => ({
    heldCents: t.exposeInt('heldCents', { description: 'Every hold placed (each paid order holds its quote once).' }),
    chargedCents: t.exposeInt('chargedCents', { description: 'Charged for results delivered.' }),
    releasedCents: t.exposeInt('releasedCents', { description: 'Released for orders that failed or were cancelled.' }),
    outstandingCents: t.exposeInt('outstandingCents', { description: 'Still on hold: orders not charged or released yet.' }),
    savedCents: t.exposeInt('savedCents', { description: 'Not spent: the price of orders not placed because a step reused an earlier result with the same inputs (prompt, reference, source versions).' }),
  }),
});
