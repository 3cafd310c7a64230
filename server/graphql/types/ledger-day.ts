import { builder } from '../builder.ts';
import { LedgerDayRef } from '../refs.ts';

builder.objectType(LedgerDayRef, {
  description: 'The money of one UTC day, in US cents.',
  fields: (t) => ({
    day: t.exposeString('day', { description: 'UTC date, YYYY-MM-DD' }),
    heldCents: t.exposeInt('heldCents', { description: 'Every hold placed that day, settled or not (each paid order holds its quote once).' }),
    onHoldCents: t.exposeInt('onHoldCents', { description: 'Of the holds placed that day, what is still on hold: orders not charged or released yet.' }),
    chargedCents: t.exposeInt('chargedCents', { description: 'Charged that day (results delivered).' }),
    releasedCents: t.exposeInt('releasedCents', { description: 'Released that day (orders that failed or were cancelled).' }),
    entries: t.exposeInt('entries', { description: 'Ledger entries that day (holds, charges, releases).' }),
  }),
});
