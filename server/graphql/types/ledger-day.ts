import { builder } from '../builder.ts';
import { LedgerDayRef } from '../refs.ts';

builder.objectType(LedgerDayRef, {
  fields: (t) => ({
    day: t.exposeString('day', { description: 'UTC date, YYYY-MM-DD' }),
    heldCents: t.exposeInt('heldCents'),
    chargedCents: t.exposeInt('chargedCents'),
    releasedCents: t.exposeInt('releasedCents'),
    entries: t.exposeInt('entries'),
  }),
});
