import { builder } from '../builder.ts';
import { PayloadRefRef } from '../refs.ts';

builder.objectType(PayloadRefRef, {
  description: 'Where a large payload is stored: by content hash, once.',
  fields: (t) => ({
    hash: t.exposeString('hash', { description: 'SHA-256 of the stored payload (hex).' }),
    size: t.exposeInt('size', { description: 'Its size in bytes.' }),
    schema: t.exposeString('schema', { description: 'The name and version of its shape (as TaskEvent.payloadSchema).' }),
  }),
});
