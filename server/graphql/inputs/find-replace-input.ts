import { builder } from '../builder.ts';

export const FindReplaceInput = builder.inputType('FindReplaceInput', {
  description: 'One exact replacement in a document.',
  fields: (t) => ({
    find: t.string({ required: true, description: 'Text that must occur exactly once in the document.' }),
    replace: t.string({ required: true, description: 'What replaces it.' }),
  }),
});
