import { builder } from '../builder.ts';
import { PayloadRefRef } from '../refs.ts';

builder.objectType(PayloadRefRef, {
  description: 'Where a large payload is stored: by content hash, once.',
  fields: (t) => ({
    hash: t.exposeString('hash'),
    size: t.exposeInt('size'),
    schema: t.exposeString('schema'),
  }),
});
